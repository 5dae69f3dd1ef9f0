/// The sysexits codes Atelier's tools end with (DESIGN.md "Exit codes", atelier(7)).
///
/// It lives with the records, below every library, so each library's error type can say which
/// of these it means (`ExitCodedError`) and the command-line layer maps errors in one place
/// without knowing the libraries.
public enum Sysexit: Int32, Sendable {
    case ok = 0
    case noMatch = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    case cannotCreate = 73
    case ioError = 74
    case tempFail = 75
    case noPermission = 77
}

/// An error that says how it ends a tool: the one-line message a person reads (`description`)
/// and the sysexits code (`sysexit`).
///
/// Every library's error type conforms, beside its cases, so the category is decided where the
/// error is defined and `Diagnostics` in AtelierCLI maps any error with one `as?`. A library
/// error that wraps another (a catalog error caused by a record's field) forwards the inner one.
public protocol ExitCodedError: Error, CustomStringConvertible {
    /// The exit code a tool ends with when this error stops it.
    var sysexit: Sysexit { get }
}

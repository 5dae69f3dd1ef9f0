import Foundation

/// Running out of space, recognised the same way by every library: `ENOSPC` or `EDQUOT`,
/// whether it arrives as an `errno`, a `POSIXError`, or a Foundation error (possibly wrapping
/// one), and reported with the same words, `no space left on device writing PATH`, exit 73.
public enum OutOfSpace {
    /// True for the errno values that mean the disk (or the user's quota) is full.
    public static func isOutOfSpace(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }

    /// The one message for a full disk while `path` was being written.
    public static func message(writing path: String) -> String { "no space left on device writing \(path)" }

    /// The system's `errno` an error carries, if any: a `SystemCallFailure`, a `POSIXError`, an `NSError` in the POSIX
    /// domain, Foundation's out-of-space write error (as `ENOSPC`), or any of these underlying a
    /// Foundation error.
    public static func errno(in error: Error) -> Int32? {
        if let carrying = error as? SystemCallFailure { return carrying.systemErrorCode }
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: ns.code) }
        if ns.domain == NSCocoaErrorDomain && ns.code == NSFileWriteOutOfSpaceError { return ENOSPC }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? Error { return self.errno(in: underlying) }
        return nil
    }

    /// True when `error` carries an out-of-space `errno` (see `errno(in:)`).
    public static func isOutOfSpace(_ error: Error) -> Bool { errno(in: error).map(isOutOfSpace) ?? false }
}

/// An error that keeps the `errno` of the system call that failed, so a full disk is recognised
/// through it (`OutOfSpace.errno(in:)`) without matching its text.
public protocol SystemCallFailure: Error {
    /// The `errno` of the failed call; nil for the cases of the error that made no system call.
    var systemErrorCode: Int32? { get }
}

#if canImport(Glibc)
import Glibc
#endif

/// Everything DNS-SD discovery can fail with: a malformed DNS message, a name that cannot be
/// put on the wire, or a socket call that the system refused.
///
/// Decoding errors carry the byte offset where the message went wrong, so that a fuzz finding or
/// a capture can be read alongside the hex dump. Socket errors carry the system call, the
/// interface it was made for and `errno`, so that a person can tell "no such interface" from
/// "port in use" from "multicast not permitted" without strace.
public enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message ended before a field that must follow: `needed` bytes at `offset`.
    case truncated(offset: Int, needed: Int)
    /// A compression pointer at `offset` points at or after the name it belongs to, which
    /// could loop (RFC 1035 §4.1.4 only allows pointers to prior occurrences).
    case compressionLoop(offset: Int)
    /// A compression pointer at `offset` points outside the message, or into its header.
    case pointerOutOfRange(offset: Int, target: Int)
    /// A label at `offset` starts with the reserved length bits 01 or 10 (RFC 6891 extended
    /// labels are obsolete).
    case reservedLabelType(offset: Int, byte: UInt8)
    /// A name (at `offset`, or being built when `offset` is nil) is longer than 255 bytes on the
    /// wire, or has a label longer than 63 bytes.
    case nameTooLong(offset: Int?)
    /// A label of the name is empty (`a..b`) or the name text cannot be split into labels.
    case invalidName(String)
    /// The header announces more records than the message could possibly hold, or more than
    /// the decoder's bound (`DNSMessage.maximumRecordCount`).
    case tooManyRecords(count: Int)
    /// A record's data is shorter or longer than its type requires (an A record of 5 bytes, an
    /// SRV whose target runs past its RDLENGTH).
    case badRecordData(type: UInt16, offset: Int)
    /// The interface named (by name or address) does not exist, is down, or has no address
    /// of the family discovery needs.
    case noSuchInterface(String)
    /// No interface is up and able to carry multicast (nor even loopback).
    case noUsableInterface
    /// A socket call failed: which call, for which interface, and `errno`.
    case socketCall(call: String, interface: String, errno: Int32)
    /// `MDNSAdvertiser.start()` was called on an advertiser that is already running or stopped.
    case advertiserAlreadyStarted

    public var description: String {
        switch self {
        case .truncated(let offset, let needed):
            return "DNS message truncated: \(needed) more byte(s) needed at offset \(offset)"
        case .compressionLoop(let offset):
            return "DNS name compression pointer at offset \(offset) does not point backwards (possible loop)"
        case .pointerOutOfRange(let offset, let target):
            return "DNS name compression pointer at offset \(offset) points to \(target), outside the message"
        case .reservedLabelType(let offset, let byte):
            return "DNS label at offset \(offset) has a reserved type (length byte 0x\(String(byte, radix: 16)))"
        case .nameTooLong(let offset):
            return "DNS name " + (offset.map { "at offset \($0) " } ?? "") + "exceeds 255 bytes or has a label over 63 bytes"
        case .invalidName(let text):
            return "not a valid DNS name: \(text.debugDescription)"
        case .tooManyRecords(let count):
            return "DNS message announces \(count) records, more than it can hold"
        case .badRecordData(let type, let offset):
            return "DNS record of type \(type) at offset \(offset) has malformed data"
        case .noSuchInterface(let name):
            return "no usable network interface \(name.debugDescription) (it must exist, be up and have an IPv4 or IPv6 address)"
        case .noUsableInterface:
            return "no network interface is up and able to carry multicast DNS"
        case .socketCall(let call, let interface, let code):
            return "\(call) on \(interface) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .advertiserAlreadyStarted:
            return "the mDNS advertiser was already started; make a new one to advertise again"
        }
    }
}

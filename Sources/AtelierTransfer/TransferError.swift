import AtelierRecords
import Foundation

/// Everything that can go wrong in AtelierTransfer: the pairing code, the handshake, the
/// encrypted channel, the transfer messages, the sender's files, the receiver's disk, the
/// sockets below and DNS-SD discovery beside them.
///
/// One enum for the whole library, so that the command line maps it to a message and an exit
/// code in one place (`TransferExitCodes.swift`; docs/transfer-protocol.md has the table:
/// `wrongCode` and `weakPeerKey` are exit 77). Each case carries what a person needs to act on
/// it: the path, the address, the frame number, the byte offset. This library never prints:
/// `description` is the sentence a tool shows after its own prefix.
public indirect enum TransferError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: Pairing code

    /// The text is not a pairing code of the form `NUMBER-WORD-WORD`; `reason` says what is off.
    case invalidPairingCode(String, reason: String)
    /// A word of the code is not in the word list (nor a unique prefix of four letters or more
    /// of one); `suggestion` is the closest word of the list, when one is close.
    case unknownPairingWord(String, suggestion: String?)

    // MARK: Handshake

    /// A handshake message has the wrong size or magic: the peer is not an Atelier transfer
    /// peer, or speaks another protocol on this port.
    case malformedHandshake(String)
    /// The two sides share no protocol version.
    case unsupportedVersion(ours: ClosedRange<UInt8>, theirs: ClosedRange<UInt8>)
    /// The peer's public share is a low-order point (or yields the all-zero secret): an attack
    /// or a broken peer. The handshake is aborted, as CPace requires.
    case weakPeerKey
    /// Key confirmation failed: the two sides typed different pairing codes (or an attacker
    /// guessed and lost). Each side detects this by itself, before any file byte moves.
    case wrongCode
    /// The receiver is in the middle of another batch and turned this connection away.
    case receiverBusy
    /// A handshake step was called out of order (a programming error in the caller).
    case handshakeOutOfOrder(String)

    // MARK: Channel

    /// A frame's length prefix announces more than the limit; refused before allocating.
    case frameTooLarge(length: Int, limit: Int)
    /// A frame's length prefix is too short to hold a tag and a message type.
    case frameTooSmall(length: Int)
    /// Frame number `frame` (counting from 0 in its direction) did not authenticate: it was
    /// tampered with, reordered, replayed, or sealed with another key.
    case authenticationFailed(frame: UInt64)
    /// The byte stream ended without the close frame (`bufferedBytes` of a partial frame
    /// were left): the transfer was cut, or the stream truncated by an attacker.
    case truncatedStream(bufferedBytes: Int)
    /// Bytes arrived after the peer's close frame.
    case dataAfterClose
    /// Sealing was asked for after this side sent its close frame.
    case channelClosed
    /// The per-direction frame counter is exhausted; a nonce would repeat.
    case nonceExhausted

    // MARK: Messages

    /// A decrypted message does not parse: `message` names its type, `reason` what is wrong.
    case malformedMessage(String, reason: String)
    /// A path in a manifest is not a safe relative path; `reason` says which rule it breaks.
    case unsafePath(String, reason: String)
    /// A manifest breaks a rule (limits, duplicates, a file that is also a directory, parts
    /// that do not fit together).
    case invalidManifest(String)
    /// A message arrived that the protocol does not allow at this point.
    case unexpectedMessage(expected: String, got: String)
    /// The peer aborted the transfer with this reason and explanation.
    case peerAborted(AbortReason, message: String)

    // MARK: Sender's files

    /// A file to send could not be opened, examined or read (`reason` is the system's).
    case cannotRead(path: String, reason: String)
    /// A file to send is not a regular file (a directory, a device, a FIFO).
    case notARegularFileToSend(path: String)
    /// Two files would get the same name on the receiver.
    case duplicateName(String)
    /// The file changed between hashing and sending (it is shorter, or of another size, than
    /// when it was hashed).
    case changed(path: String)
    /// The file's bytes no longer hash to the sha256 its record gives it (an image record's id):
    /// it changed since. (A hash from atl-send's cache is only a hint and never fails a send.)
    case notAsRecorded(path: String)

    // MARK: Receiver's disk

    /// A file or directory could not be made or written (permissions, a read-only disk).
    case cannotWrite(path: String, reason: String)
    /// A file of the batch is already there with other content, and `--overwrite` was not given.
    case wouldOverwrite(path: String)
    /// A directory is where the batch has a file.
    case isADirectory(path: String)
    /// Something that is not a directory (a file, a symlink, a device) is where the batch needs
    /// a directory.
    case notADirectory(path: String)
    /// Something other than a regular file is where the batch has a file (a symlink, a device,
    /// a FIFO): never written through.
    case notARegularFileInTheWay(path: String)
    /// The disk lacks room for what is still to come.
    case noSpace(path: String, neededBytes: Int64, freeBytes: Int64)
    /// The disk filled up while `path` was being written.
    case diskFull(path: String)
    /// The received bytes do not hash to the sha256 the sender computed as it read them (its
    /// `fileEnd`): the file was deleted, nothing took its final name.
    case checksumMismatch(path: String)

    // MARK: Transport

    /// `HOST:PORT` (or `[v6]:PORT`) did not parse.
    case badAddress(String)
    /// The name did not resolve.
    case unresolved(host: String, reason: String)
    /// Nothing accepted the connection (refused, unreachable).
    case cannotConnect(address: String, reason: String)
    /// `bind`/`listen` failed (port in use, no such address).
    case cannotListen(address: String, reason: String)
    /// No byte moved for the given number of seconds.
    case timedOut(what: String, seconds: Double)
    /// The connection broke (reset, closed early).
    case broken(reason: String)
    /// A connection broke off during the handshake before the peer could learn anything about
    /// the code: it never received the receiver's confirmation tag, so it made no guess (a port
    /// scanner, a peer that is not atl-send). `underlying` says what happened. Once that tag is
    /// sent, any failure counts as the one attempt the code allows and is thrown as itself.
    case noPairingAttempt(underlying: TransferError)

    // MARK: Discovery

    /// A DNS message ended before a field that must follow: `needed` bytes at `offset`.
    /// (Decoding errors carry the byte offset where the message went wrong, so that a fuzz
    /// finding or a capture can be read alongside the hex dump.)
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
    /// A socket call for discovery failed: which call, for which interface, and `errno`, so
    /// that a person can tell "no such interface" from "port in use" from "multicast not
    /// permitted" without strace.
    case socketCall(call: String, interface: String, errno: Int32)
    /// `MDNSAdvertiser.start()` was called on an advertiser that is already running or stopped.
    case advertiserAlreadyStarted

    /// The sentence a tool shows after its own prefix.
    public var description: String {
        switch self {
        case .invalidPairingCode(let text, let reason):
            return "\(text.debugDescription) is not a pairing code (\(reason)); a code looks like 7-crane-orbit"
        case .unknownPairingWord(let word, let suggestion):
            let hint = suggestion.map { " (did you mean \"\($0)\"?)" } ?? ""
            return "\(word.debugDescription) is not a pairing-code word\(hint)"
        case .malformedHandshake(let what):
            return "the peer does not speak the Atelier transfer protocol: \(what)"
        case .unsupportedVersion(let ours, let theirs):
            func versions(_ range: ClosedRange<UInt8>) -> String { range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)" }
            return "no common protocol version: we speak \(versions(ours)), the peer \(versions(theirs)); update the older side"
        case .weakPeerKey:
            return "the peer sent an invalid key share (a low-order point); handshake aborted"
        case .wrongCode:
            return "wrong pairing code: the two sides typed different codes; nothing was transferred"
        case .receiverBusy:
            return "the receiver is busy with another batch; try again when it is done"
        case .handshakeOutOfOrder(let what):
            return "handshake step out of order: \(what)"
        case .frameTooLarge(let length, let limit):
            return "frame of \(length) bytes announced, more than the limit of \(limit)"
        case .frameTooSmall(let length):
            return "frame of \(length) bytes announced, too short to be a sealed frame"
        case .authenticationFailed(let frame):
            return "frame \(frame) failed authentication: the stream was tampered with, reordered or replayed"
        case .truncatedStream(let buffered):
            return "the stream ended before the peer closed it (\(buffered) bytes of a partial frame left): the transfer was cut"
        case .dataAfterClose:
            return "the peer sent data after closing the stream"
        case .channelClosed:
            return "cannot send after the close frame"
        case .nonceExhausted:
            return "frame counter exhausted; start a new session"
        case .malformedMessage(let message, let reason):
            return "malformed \(message) message: \(reason)"
        case .unsafePath(let path, let reason):
            return "unsafe path \(path.debugDescription) in the manifest: \(reason)"
        case .invalidManifest(let why):
            return "invalid manifest: \(why)"
        case .unexpectedMessage(let expected, let got):
            return "protocol error: expected \(expected), got \(got)"
        case .peerAborted(let reason, let message):
            return message.isEmpty ? "the peer aborted: \(reason)" : "the peer aborted: \(reason): \(message)"
        case .cannotRead(let path, let reason): return "\(path): cannot read: \(reason)"
        case .notARegularFileToSend(let path): return "\(path): not a regular file"
        case .duplicateName(let name): return "two files would both be \(name) on the receiver"
        case .changed(let path): return "\(path) changed while being sent"
        case .notAsRecorded(let path): return "\(path) changed since its sha256 was noted in its record; import it again, or send the file by name"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .wouldOverwrite(let path): return "\(path) exists with other content (use --overwrite to replace it)"
        case .isADirectory(let path): return "\(path) is a directory, where the batch has a file; move it away or receive --into another directory"
        case .notADirectory(let path): return "\(path) exists and is not a directory, where the batch needs one; move it away or receive --into another directory"
        case .notARegularFileInTheWay(let path): return "\(path) is in the way and is not a regular file (a symbolic link, device or FIFO is never written through)"
        case .noSpace(let path, let needed, let free):
            return "not enough space in \(path): the batch needs \(Self.size(needed)) more, \(Self.size(free)) free"
        case .diskFull(let path): return OutOfSpace.message(writing: path)
        case .checksumMismatch(let path): return "\(path) arrived damaged: its sha256 differs from the sender's"
        case .badAddress(let text): return "\(text.debugDescription) is not HOST:PORT"
        case .unresolved(let host, let reason): return "cannot resolve \(host): \(reason)"
        case .cannotConnect(let address, let reason): return "cannot connect to \(address): \(reason)"
        case .cannotListen(let address, let reason): return "cannot listen on \(address): \(reason)"
        case .timedOut(let what, let seconds): return "timed out after \(Self.format(seconds)) s \(what)"
        case .broken(let reason): return "the connection broke: \(reason)"
        case .noPairingAttempt(let underlying): return "\(underlying)"
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

    static func size(_ bytes: Int64) -> String { ByteCount.describe(Double(bytes)) }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}

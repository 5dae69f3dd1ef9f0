import AtelierTransferCLI
import AtelierCLI
import ArgumentParser
import AtelierRecords
import AtelierTransfer
import Foundation

/// `atl-recv`: receive one batch of files from `atl-send`, verified and resumable.
public struct ReceiveCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "atl-recv",
        abstract: "Receive a batch of files from atl-send over an encrypted, code-paired connection.",
        discussion: """
            Waits for one sender on the local network, pairs with it by the shared code (CPace, so a \
            wrong guess learns nothing and costs the guesser the attempt), receives the manifest, \
            checks it (safe names, free space, nothing overwritten unless --overwrite) and writes \
            each file under a temporary name, checks its sha256 against the one the sender \
            computed as it read the file (sent after the file's bytes) and renames it into \
            DIR/<batch>/ with its directories. Prints a capture record per file as it lands and, \
            once every file is verified on disk, the batch record with status "complete" \
            (END_BATCH), so 'atl-recv | atl-reconstruct' can start at once.

            Without --listen it listens on a free port and advertises itself as _atelier._tcp over \
            multicast DNS with the code's number (the number is public, the words are the secret). \
            Without --code it makes a code up and shows it on stderr.

            One pairing attempt per code: after a wrong code the receiver stops. A connection that \
            goes away or speaks something else before it has made a guess (a port scanner, say) is \
            reported on stderr and the receiver goes on waiting.

            Interrupted (network cut, either side killed)? Run both commands again: complete files \
            are kept, partial ones continue where they stopped. A wrong code fails on both sides \
            with exit 77 and nothing written; a tampered or truncated stream stops with exit 74 and \
            nothing damaged in DIR. The protocol is in docs/transfer-protocol.md.

            The examples start both ends on one machine, to try it; across machines, run each side on its own.

            EXAMPLES
              atl-recv --code 7-crane-orbit --into Scans/Input & atl-send --code 7-crane-orbit photos > /dev/null; wait
              atl-recv --code 7-crane-orbit --into Scans/Input | jq -c 'select(.type == "batch")' & atl-send --code 7-crane-orbit photos > /dev/null; wait
              atl-recv --listen 127.0.0.1:9700 --code 7-crane-orbit --into /tmp/in & atl-send --to 127.0.0.1:9700 --code 7-crane-orbit photo.jpg > /dev/null; wait
            """,
        version: AtelierVersion.string)

    @OptionGroup var transfer: TransferOptions

    @Option(name: .long, help: ArgumentHelp("Where batches land, each in a directory named by its batch id.", valueName: "dir"),
            completion: .directory)
    var into = "Scans/Input"

    @Option(name: .long, help: ArgumentHelp("Listen on this address and port and skip advertising (':9700', '0.0.0.0:9700', '[::]:9700').", valueName: "addr:port"))
    var listen: String?

    @Flag(name: .long, help: "Replace files of the batch directory that exist with other content.")
    var overwrite = false

    @Option(name: .long, help: ArgumentHelp("How long to wait for the sender to connect.", valueName: "seconds"))
    var wait: Double = 600

    @OptionGroup var output: OutputOptions
    @OptionGroup var progress: ProgressOptions

    public init() {}

    public func validate() throws {
        if let listen { _ = try SocketAddress.split(listen) }
        if !(wait > 0) { throw ValidationError("--wait must be a positive number of seconds") }
    }

    public func run() throws {
        try TransferRun.run(lineBuffered: output.lineBuffered) { try receive(out: $0) }
    }

    private func receive(out: RecordOutput) throws {
        let (code, generated) = try transfer.pairingCode()
        let listener = try TCPListener(listen ?? ":0")
        var advertiser: MDNSAdvertiser?
        if listen == nil {
            let service = ServiceAdvertisement.atelier(codeNumber: code.number, port: listener.address.port)
            advertiser = MDNSAdvertiser(service, interfaces: transfer.interfaces)
            try advertiser!.start()
        }
        defer { advertiser?.stop() }
        if generated {
            Diagnostics.warn("code \(code); on the sending machine: atl-send --code \(code) FILE…")
        }
        Diagnostics.note("waiting for a sender on port \(listener.address.port)")
        let connection = try pair(listener: listener, code: code)
        advertiser?.stop()
        // A second sender hears that this one is busy, rather than waiting and being reset.
        let busy = BusyAnswerer(listener: listener) { peer in
            Diagnostics.warn("\(peer.host) connected while this batch is being received; told it to try again when it is done")
        }
        defer { busy.stop() }
        var bar: ProgressReporter?
        var total: UInt64 = 0
        try BatchReceiver(into: into, overwrite: overwrite).run(connection) { event in
            switch event {
            case .accepted(_, _, _, _, let toReceive):
                total = toReceive
                bar = ProgressReporter(mode: progress.progress, stage: "receiving", unit: "bytes", total: Int(toReceive))
            case .received(let bytes):
                bar?.update(done: Int(bytes))
            case .file(let file):
                try out.write(["type": "capture", "batch": .string(file.batch),
                               "index": .int(Int64(file.index)), "path": .string(Self.absolute(file.path)), "name": .string(file.relativePath),
                               "sha256": .string(file.sha256Hex), "bytes": .int(Int64(file.bytes)),
                               "status": .string(file.resumedFrom == nil ? "present" : file.resumedFrom! > 0 ? "resumed" : "received")])
            case .complete(let batch, let directory, let files, let bytes):
                bar?.finish(done: Int(total))
                try out.write(["type": "batch", "id": .string(batch), "count": .int(Int64(files)), "bytes": .int(Int64(bytes)),
                               "dir": .string(Self.absolute(directory)), "status": "complete"])
            }
        }
    }

    /// The first connection that completes the handshake. One attempt per code: a wrong code
    /// ends the session (exit 77), so guessing is hopeless. A connection that breaks off before
    /// it could learn anything about the code (a port scanner, a peer that is not atl-send)
    /// is not an attempt: it is reported and the receiver goes on waiting, so that nobody on
    /// the network can stop a transfer just by knocking on the port.
    private func pair(listener: TCPListener, code: PairingCode) throws -> SecureConnection {
        let deadline = Date().addingTimeInterval(wait)
        while true {
            let socket: TCPConnection
            do throws(TransferError) {
                socket = try listener.accept(timeoutSeconds: max(0.001, deadline.timeIntervalSinceNow), connectionTimeoutSeconds: min(transfer.timeout, 10))
            } catch {
                // Say the --wait asked for, not what was left of it after a knock.
                guard case .timedOut(let what, _) = error else { throw error }
                throw TransferError.timedOut(what: what, seconds: wait)
            }
            do {
                let connection = try SecureConnection.pairAsReceiver(socket, code: code)
                socket.timeoutSeconds = transfer.timeout
                return connection
            } catch TransferError.noPairingAttempt(let error) {
                Diagnostics.warn("\(socket.peer.host) connected but did not pair (\(error)); still waiting")
            }
        }
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

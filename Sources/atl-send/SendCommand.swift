import AtelierTransferCLI
import AtelierCLI
import ArgumentParser
import AtelierRecords
import AtelierTransfer
import Foundation

/// `atl-send`: send files to `atl-recv`, encrypted, verified and resumable.
public struct SendCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "atl-send",
        abstract: "Send files to atl-recv over an encrypted, code-paired connection on the local network.",
        discussion: """
            Sends the files and directories named (directories keep their structure), or the \
            files named by the "path" of records on standard input, so 'atl-import --images … | \
            atl-send' works. It finds the receiver whose code has the same number over multicast \
            DNS (or connects to --to), pairs by the shared code, sends the manifest (names and \
            sizes), then the files the receiver does not have yet, each hashed as it is read and \
            followed by its sha256, and prints a capture record per file once the receiver has \
            verified it, then the batch record. Hashes of files sent before are kept in \
            $XDG_CACHE_HOME/atelier/send-hashes.tsv (by device, inode, size and times), so that \
            sending a folder again need not read the files the receiver already has.

            Without --code it makes a code up and shows it on stderr; type it into atl-recv on the \
            other machine. Running the same command again after an interruption resumes: files \
            already there are skipped, a partial one continues from where it stopped if its first \
            bytes are still the same (the batch id is a digest of the files' names, sizes, times \
            and inodes, or --batch). A wrong code fails on both sides with \
            exit 77, and the receiver stops listening.

            The examples start both ends on one machine, to try it; across machines, run each side on its own.

            EXAMPLES
              atl-recv --code 7-crane-orbit --into received & atl-send --code 7-crane-orbit photo.jpg photos; wait
              atl-recv --listen 127.0.0.1:9700 --code 7-crane-orbit --into received & atl-send --to 127.0.0.1:9700 --code 7-crane-orbit photos; wait
              atl-recv --code 7-crane-orbit --into received > /dev/null & atl-query images | atl-send --code 7-crane-orbit | jq -c 'select(.type == "batch")'; wait
              atl-recv --code 7-crane-orbit --into received > /dev/null & atl-send --code 7-crane-orbit --limit-rate 20M photos > /dev/null; wait
            """,
        version: AtelierVersion.string)

    @Argument(help: ArgumentHelp("Files or directories to send (default: records with a path on standard input).", valueName: "file"),
              completion: .file())
    var files: [String] = []

    @OptionGroup var transfer: TransferOptions

    @Option(name: .long, help: ArgumentHelp("Connect to this receiver and skip discovery ('192.168.1.20:9700', '[fe80::1%eth0]:9700').", valueName: "host:port"))
    var to: String?

    @Option(name: .long, help: ArgumentHelp("Name the batch (letters, digits, _ and -; default: a digest of the files).", valueName: "id"))
    var batch: String?

    @Option(name: .long, help: ArgumentHelp("Send at most this many bytes per second (500k, 20M, 1G).", valueName: "rate"))
    var limitRate: ByteRate?

    @Option(name: .long, help: ArgumentHelp("How long to look for the receiver (or to wait for it to listen, with --to).", valueName: "seconds"))
    var wait: Double = 60

    @OptionGroup var output: OutputOptions
    @OptionGroup var progress: ProgressOptions

    public init() {}

    public func validate() throws {
        if let to { _ = try SocketAddress.split(to) }
        if !(wait > 0) { throw ValidationError("--wait must be a positive number of seconds") }
        if let batch, batch.isEmpty || batch.count > 64 || !batch.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) {
            throw ValidationError("--batch takes 1 to 64 letters, digits, _ and -")
        }
    }

    public func run() throws {
        try TransferRun.run(lineBuffered: output.lineBuffered) { try send(out: $0) }
    }

    private func send(out: RecordOutput) throws {
        let items: [LocalBatch.Item]
        if files.isEmpty {
            if isatty(0) == 1 { throw ToolFailure("atl-send sends the files named as arguments, or records with a path on standard input; try: atl-send --code CODE FILE…", .usage) }
            let (fromRecords, ignored) = try SendSources.items(records: LineReader(path: "-"))
            if ignored > 0 { Diagnostics.warn("\(ignored) record\(ignored == 1 ? "" : "s") without a path left out") }
            items = fromRecords
        } else {
            items = try SendSources.items(arguments: files)
        }
        guard !items.isEmpty else { throw ToolFailure("nothing to send", .noInput) }
        let (code, generated) = try transfer.pairingCode()
        if generated { Diagnostics.warn("code \(code); on the receiving machine: atl-recv --code \(code)") }

        var cache = SendHashCache.load()
        let batch = try LocalBatch.make(cache.filling(items), batchID: self.batch)
        // The hashes learnt (each file's as the receiver verified it) are noted also when the
        // transfer fails part-way, so that the rerun need not read the files already there.
        var learnt: [(path: String, sha256Hex: String)] = []
        defer { if cache.remember(learnt) { cache.saveOrWarn() } }
        try send(batch, code: code, out: out) { index, sha256Hex in
            if !batch.recorded.contains(index) { learnt.append((batch.localPaths[index], sha256Hex)) }
        }
    }

    /// Pairs with the receiver and sends `batch`, printing a record per file and the batch
    /// record; `verified` hears each file's sha256 as the receiver verifies it.
    private func send(_ batch: LocalBatch, code: PairingCode, out: RecordOutput, verified: (Int, String) -> Void) throws {
        let socket = try connect(code: code)
        let connection = try SecureConnection.pairAsSender(socket, code: code)
        let manifest = batch.manifest
        var bar: ProgressReporter?
        var toSend: UInt64 = 0
        var sentBytes: UInt64 = 0
        let start = Date()
        try BatchSender(maxBytesPerSecond: limitRate?.bytesPerSecond).run(batch, over: connection) { event in
            switch event {
            case .resumed(let bytes, _):
                toSend = bytes
                bar = ProgressReporter(mode: progress.progress, stage: "sending", unit: "bytes", total: Int(bytes))
            case .sent(let bytes):
                sentBytes = bytes
                bar?.update(done: Int(bytes))
            case .verified(let index, let resumedFrom, let sha256Hex):
                verified(index, sha256Hex)
                let entry = manifest.entries[index]
                try out.write(["type": "capture", "batch": .string(manifest.batchID), "index": .int(Int64(index)),
                               "path": .string(batch.localPaths[index]), "name": .string(entry.path.string),
                               "sha256": .string(sha256Hex), "bytes": .int(Int64(entry.size)),
                               "status": .string(resumedFrom == nil ? "present" : resumedFrom! > 0 ? "resumed" : "sent")])
            case .complete:
                bar?.finish(done: Int(toSend))
                let seconds = Date().timeIntervalSince(start)
                try out.write(["type": "batch", "id": .string(manifest.batchID), "count": .int(Int64(manifest.entries.count)),
                               "bytes": .int(Int64(manifest.totalBytes)), "sent": .int(Int64(sentBytes)),
                               "seconds": .double((seconds * 1000).rounded() / 1000), "status": "complete"])
            }
        }
    }

    /// Connects to --to, or to the receiver advertising the code's number.
    private func connect(code: PairingCode) throws -> TCPConnection {
        if let to {
            // The receiver may not be listening yet: keep trying for --wait seconds.
            let (host, port) = try SocketAddress.split(to)
            let deadline = Date().addingTimeInterval(wait)
            let addresses = try SocketAddress.resolve(host: host, port: port)
            while true {
                do throws(TransferError) {
                    return try TCPConnection.connect(to: addresses, timeoutSeconds: transfer.timeout)
                } catch {
                    guard case .cannotConnect = error, Date() < deadline else { throw error }
                    Thread.sleep(forTimeInterval: 0.2)
                }
            }
        }
        Diagnostics.note("looking for the receiver with code number \(code.number)")
        guard let service = try MDNSBrowser(interfaces: transfer.interfaces).find(codeNumber: code.number, timeoutSeconds: wait) else {
            throw ToolFailure("no receiver with code number \(code.number) answered on the local network within \(Int(wait)) s (is atl-recv running? or use --to HOST:PORT)", .unavailable)
        }
        var addresses: [SocketAddress] = []
        for endpoint in service.endpoints {
            if let (host, port) = try? SocketAddress.split(endpoint), let resolved = try? SocketAddress.resolve(host: host, port: port) {
                addresses += resolved
            }
        }
        return try TCPConnection.connect(to: addresses, timeoutSeconds: transfer.timeout)
    }
}

package import Foundation

/// Runs a program to its end and returns its exit status and what it printed. Its output goes to
/// files rather than pipes (a pipe nobody drains stops a chatty program once it holds 64 KiB), and
/// past `limit` it is killed and this throws.
package func runToEnd(_ executable: String, _ arguments: [String], in directory: URL? = nil,
                     environment: [String: String]? = nil, input: Data? = nil,
                     within limit: Duration = .seconds(300)) async throws -> (status: Int32, output: String, error: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("muster-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (outURL, errURL) = (folder.appendingPathComponent("out"), folder.appendingPathComponent("err"))
    guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
          FileManager.default.createFile(atPath: errURL.path, contents: nil) else { throw TestServerError("cannot create output files in \(folder.path)") }
    let (out, err) = (try FileHandle(forWritingTo: outURL), try FileHandle(forWritingTo: errURL))
    defer { try? out.close(); try? err.close() }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    process.standardOutput = out
    process.standardError = err
    var stdin: Pipe?
    try process.runAlone { process in
        stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
    }
    if let stdin, let input {
        // Small inputs only (what a test types): they fit the pipe, so writing cannot block.
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
    }
    let read = { (url: URL) in String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
    let ending: ProcessEnding
    do {
        ending = try await process.waitForExit(within: limit, "\(executable) \(arguments.prefix(3).joined(separator: " "))")
    } catch {
        throw TestServerError("\(error); it printed: \(read(errURL).suffix(2000)) \(read(outURL).suffix(1000))")
    }
    let status: Int32 = switch ending {
    case .exited(let status): status
    case .killed(let signal): 128 + signal // as a shell reports it
    }
    return (status, read(outURL), read(errURL))
}

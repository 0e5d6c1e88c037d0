import CFuzzerDriver
import Foundation

/// Hands the command line to libFuzzer (`muster-fuzz CORPUS… -max_total_time=60`).
func runFuzzer() -> Int32 {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in musterFuzzOneInput(data, size) }
}

exit(runFuzzer())

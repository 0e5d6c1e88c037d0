#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (in the runtime `-sanitize=fuzzer` links): runs the fuzzing loop with
// argc/argv as libFuzzer's own main would. SwiftPM gives an executable its own main, so the
// fuzz binary calls this instead of relying on libFuzzer's.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

// jemalloc's options for the programs that link it (Package.swift's `allocator`), read once at
// start-up; MALLOC_CONF in the environment still overrides them.
//
// oversize_threshold: jemalloc gives allocations above 8 MiB an arena of their own that returns
// their pages to the kernel as soon as they are freed. An argon2id hash allocates 19 MiB: each
// sign-in then faulted in and zeroed 4,864 fresh pages and unmapped them again (a third of a
// sign-in's CPU went to the kernel). Above 64 MiB only; the hasher's buffers are reused instead,
// at most one per hasher thread (in an arena of the hasher's own that keeps them: PasswordHasher.swift).
// Measured: POST /auth/login 62 -> 87 a second, argon2id alone 70 -> 87 (bench/offleash.sh).
const char *malloc_conf = "oversize_threshold:67108864";

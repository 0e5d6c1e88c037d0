// swift-tools-version:6.1
import PackageDescription

// Layers, bottom to top. A layer never imports the one above it:
//   MusterJSON (bytes ↔ JSON) and CNats (libnats) → MusterNATS → MusterEvents / MusterLog → MusterRuntime (HTTP, health, metrics)
//   → MusterGeo (gazetteer) → domain modules (MusterPlatform: API keys; MusterOPL: Online Picket Line;
//   MusterAnalytics: analytics, crashes, alerts) → MusterServices → muster (CLI).
// `make fuzz` (MUSTER_FUZZ=1, in .build) instruments our own modules for libFuzzer and adds the
// fuzz executable; dependencies are built as usual (and so shared with the plain build).
// `make fuzz-smoke` (MUSTER_FUZZ=smoke, part of make test) adds the executable alone, over our
// modules as the tests' build left them: no second compile of every module, at the price of
// libFuzzer seeing the coverage of the fuzz targets only.
let fuzzing = Context.environment["MUSTER_FUZZ"] == "1"
let fuzzExecutable = fuzzing || Context.environment["MUSTER_FUZZ"] == "smoke"
// The rolling-upgrade drill (scripts/compose-test.sh) builds a "next version" of muster in .build
// itself: MUSTER_NEXT_VERSION=1 compiles MusterOPL with its next release's change (an event type's
// v2, Sources/MusterOPL/Events/ActionSubmitted+NextVersion.swift) and what imports it again; the
// next plain build compiles them back.
let nextVersion: [SwiftSetting] = Context.environment["MUSTER_NEXT_VERSION"] == "1" ? [.define("MUSTER_NEXT_VERSION")] : []

// MemberImportVisibility: a file sees only the members of modules it imports itself, so each
// target's dependency list is what its files really use; InternalImportsByDefault: an import is
// internal unless a file's package declarations show the module's types (`package import`). As
// Hummingbird builds. The package ships programs, not a library: nothing is `public`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
] + (fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"])] : [])

// The programs allocate with jemalloc (Debian's libjemalloc-dev) instead of glibc's malloc: an
// append allocates on one thread what libnats frees on another, and glibc's arenas paid for that
// in lock wake-ups (about 15 % of an append's CPU). Measured: appends +13 %, the collector's
// batches +10 %, the same folds and 304s. Libraries and tests keep the system's malloc; a fuzzing
// build does too (the sanitizer brings its own).
let allocator: [LinkerSetting] = fuzzing ? [] : [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
// jemalloc's options (CJemallocConfig/malloc_conf.c), for the programs that link it.
let allocatorConfig: [Target.Dependency] = fuzzing ? [] : ["CJemallocConfig"]

let package = Package(
    name: "muster",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "muster", targets: ["muster"]),
        .executable(name: "muster-bench", targets: ["muster-bench"]),
        .executable(name: "muster-standins", targets: ["muster-standins"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        // Traces: the API every layer speaks, and its OTLP/HTTP exporter (the gRPC one is not built).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.2.0"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Already under async-http-client; named here because the gateway's TLS test sets a trust root.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        // Already under async-http-client; named here because a test serves HTTP/2 with a stream limit.
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        // SQLite (Debian's libsqlite3) for the projections whose state outgrows one snapshot file.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // The pages' templates (deploy/templates): logic-less, so a template cannot run code or skip escaping by accident.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // Access tokens: ES256 JWTs with a `kid`, verified against the ring of signing keys.
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        // Tests only: property checks (random inputs, shrinking to a small failing one).
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // libnats from Debian's libnats-dev, seen through a shim header.
        .target(name: "CJemallocConfig"),
        .systemLibrary(
            name: "CNats",
            pkgConfig: "libnats",
            providers: [.apt(["libnats-dev"])]
        ),
        // argon2id password hashing from Debian's libargon2-dev, seen through a shim header.
        .systemLibrary(
            name: "CArgon2",
            pkgConfig: "libargon2",
            providers: [.apt(["libargon2-dev"])]
        ),
        // Registrable domains (eTLD+1) from the Public Suffix List: Debian's libpsl-dev.
        .systemLibrary(
            name: "CPSL",
            pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev"])]
        ),
        // The NATS layer: connection, core pub/sub, request/reply, JetStream, KV. Knows nothing of events.
        .target(
            name: "MusterNATS",
            dependencies: [
                "CNats", "MusterJSON",
                // SHA-256: object store content is addressed by its digest.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // A KV bucket's copy in memory says how it is (KeyValueMirror).
                .product(name: "Metrics", package: "swift-metrics"),
                // Deadlines on an event loop's timer (Timeouts).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // JSON as bytes: a one-pass scanner and Codable coders on top. Knows nothing of events.
        // Release builds skip the run-time exclusivity checks on the encoder's buffer (four of every
        // ten cycles of an encode went to them); debug builds, which run the tests, keep them.
        .target(
            name: "MusterJSON",
            dependencies: [],
            swiftSettings: swiftSettings + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        // Events: the CloudEvents envelope, the catalog of versioned types, subjects, upcasters.
        // Pure values; no I/O.
        .target(
            name: "MusterEvents",
            dependencies: ["MusterJSON"],
            swiftSettings: swiftSettings
        ),
        // The log on JetStream: streams, validated appends, the DLQ, and the projection engine
        // (folds kept whole in a snapshot file, or in SQLite tables for the big ones).
        .target(
            name: "MusterLog",
            dependencies: [
                "MusterNATS", "MusterEvents", "MusterJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // What every service shares: configuration, HTTP application, health, metrics, NATS service discovery.
        .target(
            name: "MusterRuntime",
            dependencies: [
                "MusterNATS", "MusterEvents", "MusterJSON", "MusterLog",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Pages: templates, and forms' tokens derived from the page session.
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Platform domain: API keys, and people (accounts, passwords, sessions and their tokens,
        // personal data sealed with a key per person so that a person can be forgotten).
        .target(
            name: "MusterPlatform",
            dependencies: [
                "CArgon2", "MusterNATS", "MusterEvents", "MusterJSON", "MusterLog", "MusterRuntime",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Places: an offline gazetteer (GeoNames towns + US ZIP centroids), forward and reverse. Pure; no I/O but its file.
        .target(
            name: "MusterGeo",
            dependencies: [],
            swiftSettings: swiftSettings
        ),
        // Online Picket Line: its events, the blocklist fold and views, mobile routes, moderation rules.
        .target(
            name: "MusterOPL",
            dependencies: [
                "CPSL", "MusterNATS", "MusterEvents", "MusterJSON", "MusterLog", "MusterRuntime", "MusterPlatform", "MusterGeo", "MusterPush",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings + nextVersion
        ),
        // OFFLEASH, dog-walking bookings: accounts (over the platform's people), services, locations, bookings.
        .target(
            name: "MusterOFFLEASH",
            dependencies: [
                "MusterEvents", "MusterJSON", "MusterLog", "MusterNATS", "MusterRuntime", "MusterPlatform", "MusterNotifications",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Pushes for every app: requests, delivery through APNs (HTTP/2, a provider token per team
        // shared through KV) with an outcome event per device, and a local APNs stand-in.
        .target(
            name: "MusterPush",
            dependencies: [
                "MusterEvents", "MusterJSON", "MusterLog", "MusterNATS", "MusterRuntime", "MusterPlatform",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Notifications for every app: rules that turn an app's events into messages, people's
        // preferences and quiet hours, a durable scheduler, each decision an event.
        .target(
            name: "MusterNotifications",
            dependencies: [
                "MusterEvents", "MusterJSON", "MusterLog", "MusterRuntime", "MusterPlatform", "MusterPush",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // PoP, civics learning: progress and bookmarks merged across a learner's devices.
        .target(
            name: "MusterPoP",
            dependencies: [
                "MusterEvents", "MusterJSON", "MusterLog", "MusterNotifications", "MusterPlatform", "MusterRuntime",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Field, construction crews offline for a shift: projects, time, expenses and photos merged
        // field by field, conflicts on important fields for managers, geofenced time.
        .target(
            name: "MusterField",
            dependencies: [
                "MusterEvents", "MusterJSON", "MusterLog", "MusterNATS", "MusterPlatform", "MusterPush", "MusterRuntime",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Upload bytes go to disk on NIO's file threads, never the cooperative pool.
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // ShieldAI, account security: voice enrollments (checked WAVs in the object store).
        .target(
            name: "MusterShieldAI",
            dependencies: [
                "MusterEvents", "MusterLog", "MusterNATS", "MusterRuntime", "MusterPlatform", "MusterPush",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Analytics and crashes for every app: the collector's wire format, redaction, the folds
        // (funnel, time-to-interactive, error rate, crash groups), alert rules, dashboards.
        .target(
            name: "MusterAnalytics",
            dependencies: [
                "MusterNATS", "MusterEvents", "MusterJSON", "MusterLog", "MusterRuntime", "MusterPlatform",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Services: thin compositions of the domain modules, one folder each.
        .target(
            name: "MusterServices",
            dependencies: [
                "MusterNATS", "MusterEvents", "MusterLog", "MusterRuntime", "MusterPlatform", "MusterGeo", "MusterOPL", "MusterAnalytics", "MusterOFFLEASH",
                "MusterPoP", "MusterPush", "MusterShieldAI", "MusterField", "MusterNotifications",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // Options every command-line program shares (muster, muster-bench).
        .target(
            name: "MusterCommandLine",
            dependencies: [
                "MusterNATS", "MusterEvents", "MusterLog", "MusterRuntime", "MusterServices",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The benchmarks `make bench` drives; not part of the production muster.
        .executableTarget(
            name: "muster-bench",
            dependencies: [
                "MusterNATS", "MusterEvents", "MusterLog", "MusterRuntime", "MusterPlatform", "MusterGeo", "MusterJSON", "MusterOPL", "MusterAnalytics",
                "MusterPoP", "MusterField", "MusterOFFLEASH", "MusterNotifications", "MusterServices", "MusterCommandLine",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ] + allocatorConfig,
            swiftSettings: swiftSettings,
            linkerSettings: allocator
        ),
        .executableTarget(
            name: "muster",
            dependencies: [
                "MusterNATS", "MusterEvents", "MusterLog", "MusterRuntime", "MusterPlatform", "MusterGeo", "MusterOPL", "MusterAnalytics", "MusterServices", "MusterCommandLine",
                "MusterPush", "MusterOFFLEASH",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ] + allocatorConfig,
            swiftSettings: swiftSettings,
            linkerSettings: allocator
        ),
        // Local servers that answer as the providers Muster calls but cannot reach here (APNs, FCM,
        // sign-in keys, SMS and mail, Stripe): for tests, the demo and `make run APNS=standin …`.
        // Nothing of the production `muster` depends on them (a test checks its binary).
        .target(
            name: "MusterStandIns",
            dependencies: [
                "MusterJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "muster-standins",
            dependencies: [
                "MusterPush", "MusterStandIns",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test support: a real nats-server with JetStream on a free port in a temporary folder, paths in the repository, raw sockets.
        .target(
            name: "MusterTesting",
            dependencies: [
                "MusterJSON", "MusterNATS",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test support for apps: a fresh log and the roles of a list of apps (`MusterApps`) composed on it, as a process composes them.
        .target(
            name: "MusterAppTesting",
            dependencies: [
                "MusterEvents", "MusterLog", "MusterNATS", "MusterPlatform", "MusterPush", "MusterRuntime", "MusterStandIns", "MusterTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // One test target per library target; each composes only the apps it tests (the runtime and
        // the log engine have test domains of their own). MusterServicesTests holds what needs every app.
        .testTarget(
            name: "MusterNATSTests",
            dependencies: [
                "MusterNATS", "MusterTesting",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterJSONTests",
            dependencies: ["MusterJSON", "MusterTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterEventsTests",
            dependencies: [
                "MusterEvents", "MusterJSON",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterLogTests",
            dependencies: [
                "MusterEvents", "MusterLog", "MusterNATS", "MusterTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterRuntimeTests",
            dependencies: [
                "MusterAppTesting", "MusterEvents", "MusterLog", "MusterRuntime", "MusterTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterGeoTests",
            dependencies: [
                "MusterGeo", "MusterTesting",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterPlatformTests",
            dependencies: [
                "MusterAppTesting", "MusterEvents", "MusterJSON", "MusterLog", "MusterNATS", "MusterPlatform", "MusterRuntime", "MusterTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterOPLTests",
            dependencies: [
                "MusterAppTesting", "MusterEvents", "MusterGeo", "MusterLog", "MusterNATS", "MusterOPL", "MusterPlatform", "MusterPush", "MusterRuntime", "MusterStandIns", "MusterTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterShieldAITests",
            dependencies: [
                "MusterStandIns", "MusterAppTesting", "MusterEvents", "MusterLog", "MusterNATS", "MusterPlatform", "MusterPush", "MusterRuntime", "MusterShieldAI", "MusterTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterPushTests",
            dependencies: [
                "MusterStandIns", "MusterAppTesting", "MusterEvents", "MusterLog", "MusterNATS", "MusterPlatform", "MusterPush", "MusterRuntime", "MusterTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterPoPTests",
            dependencies: [
                "MusterAppTesting", "MusterEvents", "MusterJSON", "MusterLog", "MusterNATS", "MusterNotifications", "MusterPlatform", "MusterPoP", "MusterPush",
                "MusterRuntime", "MusterStandIns", "MusterTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterFieldTests",
            dependencies: [
                "MusterAppTesting", "MusterEvents", "MusterField", "MusterJSON", "MusterLog", "MusterNATS", "MusterPlatform", "MusterPush", "MusterRuntime",
                "MusterStandIns", "MusterTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterOFFLEASHTests",
            dependencies: [
                "MusterStandIns", "MusterAppTesting", "MusterEvents", "MusterJSON", "MusterLog", "MusterNATS", "MusterOFFLEASH", "MusterPlatform", "MusterRuntime",
                "MusterTesting", "MusterNotifications", "MusterPush",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterAnalyticsTests",
            dependencies: [
                "MusterAnalytics", "MusterAppTesting", "MusterEvents", "MusterJSON", "MusterLog", "MusterNATS", "MusterPlatform", "MusterRuntime", "MusterTesting",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MusterServicesTests",
            dependencies: [
                "MusterStandIns", "MusterAnalytics", "MusterAppTesting", "MusterEvents", "MusterField", "MusterJSON", "MusterLog", "MusterNATS", "MusterNotifications", "MusterOFFLEASH", "MusterOPL", "MusterPlatform", "MusterPoP", "MusterRuntime", "MusterServices", "MusterTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

if fuzzExecutable {
    // One libFuzzer binary for every parser of outside bytes; MUSTER_FUZZ_TARGET picks which.
    package.products.append(.executable(name: "muster-fuzz", targets: ["MusterFuzz"]))
    package.targets.append(.target(name: "CFuzzerDriver", path: "Tests/Fuzz/CFuzzerDriver"))
    package.targets.append(.executableTarget(
        name: "MusterFuzz",
        dependencies: [
            "MusterNATS", "MusterEvents", "MusterJSON", "MusterLog", "MusterRuntime", "MusterPlatform", "MusterOPL", "MusterAnalytics", "MusterOFFLEASH", "MusterPoP", "MusterPush", "MusterShieldAI", "MusterField", "MusterServices", "MusterStandIns", "MusterNotifications", "CFuzzerDriver",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
        ],
        path: "Tests/Fuzz/MusterFuzz",
        swiftSettings: swiftSettings + (fuzzing ? [] : [.unsafeFlags(["-sanitize=fuzzer"])]),
        linkerSettings: [.unsafeFlags(["-sanitize=fuzzer", "-use-ld=lld"])]
    ))
}

// swift-tools-version: 6.1
import PackageDescription

// Swift settings of the targets the release binary's start-up runs. On Linux a generic type's
// metadata made from its mangled name looks up each conformance its parameters need
// (`Dictionary<String, …>`'s `String: Hashable`) by scanning every conformance record of the
// binary, some 130,000 instructions a look-up: a quarter of a one-line run's start-up went there.
// Accessed by its accessor function instead, it is handed the conformance directly. (Like
// PatternLeads' flag, it keeps the library from being a versioned dependency of another package.)
let startupSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "parselogs",
    // macOS 15: Synchronization's Atomic and Mutex and String(validating:as:) first ship there.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "parselogs", targets: ["parselogs"]),
        .library(name: "UbiquityLogKit", targets: ["UbiquityLogKit"]),
    ],
    // On by default; `--disable-default-traits` builds on the system's malloc, for a machine
    // without mimalloc. It acts on Linux alone: CMimalloc is a dependency only
    // `.when(platforms: [.linux], ...)`, so macOS builds never look for or link mimalloc.
    traits: [
        .trait(name: "Mimalloc", description: "Link mimalloc into the executable as the process's allocator (Linux)."),
        .default(enabledTraits: ["Mimalloc"]),
    ],
    // Pinned to one version (Package.resolved is not committed): a build from a clone, a
    // Homebrew build and CI get the same dependency.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        // The C library, seen through a module map and a shim header. Nothing else lives here.
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.brew(["pcre2"]), .apt(["libpcre2-dev"])]
        ),
        // zlib, for .gz inputs. macOS has it in the SDK and no zlib.pc: pkg-config then finds
        // nothing (a warning), the SDK's header is found on the default path and the module
        // map links `z` itself.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // mimalloc, linked into the executable so that it replaces the C library's malloc for the
        // whole process: every record, its text and its event is an allocation, and glibc's
        // malloc cost some 1,000 instructions a record more (docs/performance.md).
        .systemLibrary(
            name: "CMimalloc",
            providers: [.apt(["libmimalloc-dev"])]
        ),
        // Byte scans in C, sixteen bytes a step with SSE2 (x86-64) or NEON (arm64), thirty-two
        // with AVX2 (JSON escapes, ASCII): Swift's SIMD types compile to one comparison per lane
        // on Linux.
        .target(name: "CByteScan"),
        // The only Swift code that touches PCRE2's C API.
        .target(name: "PCRE2", dependencies: ["CPCRE2"]),
        // What a rule's pattern tells from its text: the bytes its matches start with, the texts
        // they contain. Every start-up reads every pattern of the catalogue with it, so it is
        // optimised in debug builds too: unoptimised, it was most of a debug binary's start-up,
        // which the end-to-end tests pay hundreds of times (docs/performance.md). The flag makes
        // the library unusable as a versioned dependency of another package; a path dependency
        // (Fuzz/) may use it.
        .target(name: "PatternLeads", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // The library: reading, records, catalogue, events, analysis, reporting. No flags, no exit().
        .target(name: "UbiquityLogKit", dependencies: ["PCRE2", "CZlib", "CByteScan", "PatternLeads"], swiftSettings: startupSettings),
        // The executable: flags, wiring, exit status.
        .executableTarget(
            name: "parselogs",
            dependencies: [
                "UbiquityLogKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .target(name: "CMimalloc", condition: .when(platforms: [.linux], traits: ["Mimalloc"])),
            ],
            swiftSettings: startupSettings,
            // A release build on Linux carries Swift's libraries (as `--static-swift-stdlib`
            // would) and the C++ library and unwinder they use: loading and relocating shared
            // libraries was a third of a short run's instructions, and libstdc++'s relocations
            // alone 1,670 of the 1,941 symbols the loader then bound (docs/performance.md).
            // FoundationEssentials, which ArgumentParser reads, is linked with the two libraries
            // it needs, which the static link does not find by itself. `-static-stdlib` asks for
            // `-lstdc++`, which `scripts/link/libstdc++.so` (first on the library path) turns
            // into the archive; `-static-libgcc` takes the unwinder from libgcc_eh.a. `-static-stdlib`
            // also exports every symbol of the binary, which nothing looks up, and the runtime's
            // `dladdr` at start-up walked them all: `--no-export-dynamic` undoes it. macOS has
            // Swift's libraries in the system.
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xlinker", "--start-group", "-lFoundationEssentials", "-l_FoundationCShims",
                                           "-l_FoundationCollections", "-Xlinker", "--end-group",
                                           "-L", Context.packageDirectory + "/scripts/link", "-Xclang-linker", "-static-libgcc",
                                           "-Xlinker", "--no-export-dynamic"],
                                          .when(platforms: [.linux], configuration: .release))]
        ),
        // Writes large realistic logs for the benchmark (scripts/gen-log); not installed.
        .executableTarget(name: "parselogs-gen-log", dependencies: ["ParselogsDevTools", "UbiquityLogKit"]),
        // Writes the table of what the rule index reads from each of the catalogue's patterns
        // (scripts/update-tables); not installed.
        .executableTarget(name: "parselogs-tables", dependencies: ["UbiquityLogKit"]),
        // Development tools, in neither the parselogs product nor the UbiquityLogKit library:
        // the floor probe, the work no design on these parts can skip, and the benchmark's log
        // generator.
        .target(name: "ParselogsDevTools", dependencies: ["UbiquityLogKit"]),
        // Times the floor probe (scripts/bench-floor); not installed. On parselogs' allocator,
        // so that the two compare.
        .executableTarget(
            name: "parselogs-floor",
            dependencies: [
                "ParselogsDevTools",
                "UbiquityLogKit",
                .target(name: "CMimalloc", condition: .when(platforms: [.linux], traits: ["Mimalloc"])),
            ]
        ),
        // Helpers shared by the test targets (in-memory inputs, running the built binary).
        .target(name: "TestSupport", dependencies: ["UbiquityLogKit"], path: "Tests/TestSupport"),
        .testTarget(name: "PCRE2Tests", dependencies: ["PCRE2"]),
        // The tables the tests read lie in Tests/Reference, outside every target; these two
        // belong to this target's tests.
        .testTarget(name: "UbiquityLogKitTests", dependencies: ["UbiquityLogKit", "PatternLeads", "TestSupport"],
                    exclude: ["ReferenceKinds.tsv", "CloudKitFormats.tsv"]),
        .testTarget(name: "ParselogsDevToolsTests", dependencies: ["ParselogsDevTools", "UbiquityLogKit", "TestSupport"]),
        // Depends on the executable so that `swift test` builds the binary it runs.
        // Its QuickParseTests reads the executable's two parsers of the command line.
        .testTarget(name: "ParselogsEndToEndTests", dependencies: [
            "TestSupport", "parselogs", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
// The libFuzzer target, in a package of its own so that ordinary builds of parselogs never
// link libFuzzer. Build and run it with scripts/fuzz.
import PackageDescription

let package = Package(
    name: "ParselogsFuzz",
    dependencies: [.package(name: "parselogs", path: "..")],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver for Swift. Nothing else.
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "ParselogsFuzz",
            dependencies: ["CFuzzerDriver", .product(name: "UbiquityLogKit", package: "parselogs")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Zeroed memory mapped from the system, whose pages are made when first written: the one place
// that spells the anonymous-mapping flag, `MAP_ANONYMOUS` in glibc and `MAP_ANON` in Darwin.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

enum ZeroedMemory {
    /// `bytes` zeros; fatal when the system has no memory for them (as an allocation is).
    static func map(_ bytes: Int) -> UnsafeMutableRawPointer {
        #if canImport(Darwin)
        let anonymous = MAP_ANON
        #else
        let anonymous = MAP_ANONYMOUS
        #endif
        guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | anonymous, -1, 0),
              memory != UnsafeMutableRawPointer(bitPattern: -1) else { fatalError("no memory for \(bytes) bytes: \(errno)") }
        return memory
    }

    /// Returns memory from `map` of `bytes` bytes to the system.
    static func unmap(_ memory: UnsafeMutableRawPointer, _ bytes: Int) { munmap(memory, bytes) }
}

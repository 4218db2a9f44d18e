// The completion scripts, run in their shells: file names, `explain` and `help` at the first
// word, kind ids after `explain`, and the values of --kind, --category and --fail-on. A shell
// that is not installed is skipped, with its reason.
import Foundation
import Testing
import TestSupport

@Suite struct CompletionTests {
    static func installed(_ shell: String) -> String? {
        ["/bin/\(shell)", "/usr/bin/\(shell)", "/usr/local/bin/\(shell)", "/opt/homebrew/bin/\(shell)"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What each command line must be offered (all of it), and must not be.
    static let cases: [(line: String, offered: Set<String>, notOffered: Set<String>)] = [
        ("parselogs fix", ["fixture-a.log", "fixture-b.log"], ["explain"]),
        ("parselogs ex", ["explain"], ["fixture-a.log"]),
        ("parselogs --fail-on br", ["broken"], []),
        ("parselogs --category sch", ["schema", "scheduler"], []),
        ("parselogs --kind import-f", ["import-failed", "import-failure-detected"], []),
        ("parselogs explain import-fa", ["import-failed", "import-failure-detected"], ["fixture-a.log"]),
        ("parselogs fixture-a.log fix", ["fixture-a.log", "fixture-b.log"], []),
        ("parselogs fixture-a.log ex", [], ["explain"]),
        ("parselogs -q fix", ["fixture-a.log", "fixture-b.log"], []),
        ("parselogs --la", ["--last"], []),
        ("parselogs --last 30m fix", ["fixture-a.log", "fixture-b.log"], []),
    ]

    /// A folder with two logs to complete, and the script for `shell`.
    private func setUp(_ shell: String) throws -> (folder: ScratchFolder, script: String) {
        let folder = try ScratchFolder("parselogs-complete")
        _ = try folder.write("fixture-a.log", Data())
        _ = try folder.write("fixture-b.log", Data())
        let generated = try Binary.run(["--generate-completion-script", shell])
        expectEqual(generated.status, 0)
        let name = shell == "zsh" ? "_parselogs" : "parselogs.\(shell)"
        return (folder, try folder.write(name, Data(generated.stdout.utf8)))
    }

    private func check(_ shell: String, complete: (String) throws -> Set<String>) throws {
        for test in CompletionTests.cases {
            let offered = try complete(test.line)
            expect(test.offered.isSubset(of: offered), "\(shell): \(test.line) offered \(offered.sorted())")
            expect(test.notOffered.isDisjoint(with: offered), "\(shell): \(test.line) offered \(offered.sorted())")
        }
    }

    @Test(.enabled(if: installed("bash") != nil, "bash is not installed"))
    func bashCompletes() throws {
        let (folder, script) = try setUp("bash")
        // complete -F calls the function with the command, the word and the word before it.
        let driver = """
            source "$1"
            COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$2"
            [[ "$2" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMPREPLY=()
            _parselogs parselogs "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let driverPath = try folder.write("driver.bash", Data(driver.utf8))
        try check("bash") { line in
            let result = try Binary.run([], executable: CompletionTests.installed("bash"), arguments: [driverPath, script, line], in: folder.url.path)
            return Set(result.stdout.split(separator: "\n").map(String.init))
        }
    }

    @Test(.enabled(if: installed("fish") != nil, "fish is not installed"))
    func fishCompletes() throws {
        let (folder, script) = try setUp("fish")
        try check("fish") { line in
            let result = try Binary.run([], executable: CompletionTests.installed("fish"),
                                        arguments: ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, line], in: folder.url.path)
            return Set(result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
        }
    }

    /// zsh completes only in an interactive shell: this one runs in a pseudo-terminal (zpty),
    /// types the line and a tab, and records every match its completion functions add.
    @Test(.enabled(if: installed("zsh") != nil, "zsh is not installed"))
    func zshCompletes() throws {
        let (folder, _) = try setUp("zsh")
        let driver = """
            zmodload zsh/zpty
            zpty -b z zsh -f -i
            zpty -w z "PS1='> '; fpath=(${(q)1} \\$fpath); autoload -U compinit; compinit -u -D; cd ${(q)1}"
            zpty -w z "compadd() { local -a m; builtin compadd -O m \\"\\$@\\"; print -rl -- \\${^m} >> ${(q)3}; builtin compadd \\"\\$@\\" }"
            zpty -w z "print -r -- READY > ${(q)3}"
            # The line is typed once the shell has read its set-up: a tab that comes before is
            # not completed.
            for i in {1..600}; do grep -q READY $3 2>/dev/null && break; sleep 0.1; done
            : > $3
            zpty -n -w z "$2"$'\\t'
            # The shell reads what comes after the tab once the completion is done.
            zpty -w z $'\\x15'"print -r -- END-OF-MATCHES >> ${(q)3}"
            for i in {1..600}; do grep -q END-OF-MATCHES $3 2>/dev/null && break; sleep 0.1; done
            zpty -d z
            cat $3
            """
        let driverPath = try folder.write("driver.zsh", Data(driver.utf8))
        var count = 0
        try check("zsh") { line in
            count += 1
            let output = folder.path("matches-\(count)")
            let result = try Binary.run([], executable: CompletionTests.installed("zsh"), arguments: ["-f", driverPath, folder.url.path, line, output], in: folder.url.path)
            let matches = result.stdout.split(separator: "\n").map(String.init)
            expectEqual(matches.last, "END-OF-MATCHES", "zsh: \(line): the completion did not finish: \(result.stdout) \(result.stderr)")
            return Set(matches)
        }
    }
}

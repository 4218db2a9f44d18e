// The completion scripts: ArgumentParser's, with its file, kind, category and --fail-on
// values, and one change each. Its generator gives a command either file arguments or
// subcommands, never both at the first word: parselogs has files there, and `explain` and
// `help` beside them (a file of that name is ./explain). Each script is changed at the one
// place that decides the first word, and the change is checked when made: a generator whose
// output no longer has that place leaves the script as it was, which
// `ReportFormatTests.completionScripts…` then reports.

enum CompletionScript {
    /// `script` for `shell` with the first word offering files and the subcommands, and a
    /// subcommand's own completions after it.
    static func patched(_ script: String, shell: String) -> String {
        let replacements: [(String, String)]
        switch shell {
        case "bash": replacements = [(bashOptions, bashSubcommand + bashOptions), (bashFirstWord, bashFirstWordPatched)]
        case "zsh": replacements = zshFirstWord
        case "fish": replacements = fishFirstWord
        default: return script
        }
        guard replacements.allSatisfy({ script.contains($0.0) }) else { return script }
        return replacements.reduce(script) { $0.replacing($1.0, with: $1.1, maxReplacements: 1) }
    }

    private static let bashFirstWord = """
            # Offer positional completions
            case "${positional_number}" in
            *)
                __parselogs_add_completions -f
                return
                ;;
            esac

        """

    /// The main command's options, read before its positional words; `parselogs explain`
    /// and `parselogs help` are subcommands only as the first argument, as `Main` reads them.
    private static let bashOptions = """
            __parselogs_offer_flags_options -1

        """

    private static let bashSubcommand = """
            if [[ "${COMP_CWORD}" -gt 1 && ( "${COMP_WORDS[1]}" = explain || "${COMP_WORDS[1]}" = help ) ]]; then
                unparsed_words=("${COMP_WORDS[@]:2:$((COMP_CWORD - 1))}")
                "_parselogs_${COMP_WORDS[1]}"
                return
            fi

        """

    private static let bashFirstWordPatched = """
            # Offer positional completions: files, and at the first word the subcommands.
            if [[ "${COMP_CWORD}" -eq 1 ]]; then
                __parselogs_add_completions -W 'explain'$'\\n''help'
            fi
            __parselogs_add_completions -f
            return

        """

    private static let zshFirstWord: [(String, String)] = [
        ("        '*:file:_files'\n", ""),
        ("""
                _describe -V subcommand subcommands && ret=0
                ;;
            arg)
                case "${words[1]}" in
                explain|help)
                    "_parselogs_${words[1]}" && ret=0
                    ;;
                esac
        """, """
                _describe -V subcommand subcommands && ret=0
                _files && ret=0
                ;;
            arg)
                case "${words[1]}" in
                explain|help)
                    "_parselogs_${words[1]}" && ret=0
                    ;;
                *)
                    _files && ret=0
                    ;;
                esac
        """),
    ]

    private static let fishFirstWord: [(String, String)] = [
        ("""
        __parselogs_should_offer_completions_for_positional "parselogs" -eq 2' -fa 'explain'
        """, """
        __parselogs_should_offer_completions_for_positional "parselogs" -eq 1' -fa 'explain'
        """),
        ("""
        __parselogs_should_offer_completions_for_positional "parselogs" -eq 2' -fa 'help'
        """, """
        __parselogs_should_offer_completions_for_positional "parselogs" -eq 1' -fa 'help'
        """),
        ("""
            case 'parselogs'
                __parselogs_parse_subcommand -r 1 
        """, """
            case 'parselogs'
                # A first word explain or help, completed, is the subcommand.
                set -l first_word 1
                contains -- "$unparsed_tokens[2]" explain help; and set first_word 0
                __parselogs_parse_subcommand (test $first_word = 1; and echo -r) $first_word 
        """),
    ]
}

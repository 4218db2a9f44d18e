/// The version of parselogs: the one place it is set. `--version`, the JSON Lines `begin`
/// object and the installed man page (scripts/install asks the binary) all read it from here.
let parselogsVersion = "0.1.0"

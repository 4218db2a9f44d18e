# Homebrew formula for parselogs, built from the head of its repository, which is its own tap:
#   brew tap parselogs/parselogs https://github.com/parselogs/parselogs.git
#   brew install --HEAD parselogs/parselogs/parselogs
class Parselogs < Formula
  desc "Reads Core Data sync logs and tells what happened to the store"
  homepage "https://github.com/parselogs/parselogs"
  head "https://github.com/parselogs/parselogs.git", branch: "main"

  # Swift 6.1 (the manifest's tools version) comes with Xcode 16.3; Synchronization's Atomic
  # and Mutex and String(validating:as:) need macOS 15 (Package.swift's platforms).
  depends_on xcode: ["16.3", :build]
  depends_on "pkgconf" => :build
  depends_on macos: :sequoia
  depends_on "pcre2"

  uses_from_macos "zlib"

  def install
    # SwiftPM's sandbox is sandbox-exec, which cannot start inside Homebrew's.
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "parselogs"
    # The binary, the man page and the shell completions, as scripts/install makes them: the
    # page comes from the argument parser's generate-manual plugin (run with
    # --disable-sandbox), with what the plugin cannot write added (the version, the synopsis's
    # operands, the exit statuses); the completions from
    # `parselogs --generate-completion-script bash|zsh|fish`.
    system "scripts/install", "--prefix", prefix
    pkgshare.install "fixtures/example.log"
  end

  test do
    # The bundled example is a session that ends badly: its verdict is broken, status 1.
    output = shell_output("#{bin}/parselogs #{pkgshare}/example.log", 1)
    assert_match(/^Verdict: broken$/, output)
    assert_match(/^\d+\.\d+\.\d+$/, shell_output("#{bin}/parselogs --version").strip)
    assert_path_exists man1/"parselogs.1"
    assert_path_exists zsh_completion/"_parselogs"
  end
end

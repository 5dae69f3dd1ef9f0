import ArgumentParser

/// Help text whose EXAMPLES lines stay whole.
///
/// ArgumentParser wraps a command's discussion to the terminal's width (80 columns when stdout
/// is not a terminal), so an example longer than that came out as two lines, and pasting it ran
/// half a command. Prose may wrap; a command a person copies must not, at any width.
enum HelpText {
    /// `rendered` with the wrapped lines from its `EXAMPLES` heading to the `USAGE:` block
    /// replaced by the examples exactly as `discussion` writes them. Text without both (a
    /// version, a completion script, a JSON dump of the help) comes back unchanged.
    static func keepingExamplesWhole(_ rendered: String, discussion: String) -> String {
        guard let source = discussion.range(of: "EXAMPLES"),
              let heading = rendered.range(of: "\nEXAMPLES"),
              let usage = rendered.range(of: "\nUSAGE:", range: heading.upperBound..<rendered.endIndex)
        else { return rendered }
        var examples = String(discussion[source.lowerBound...])
        while examples.last?.isWhitespace == true { examples.removeLast() }
        return String(rendered[..<heading.lowerBound]) + "\n" + examples + "\n" + rendered[usage.lowerBound...]
    }
}

extension ParsableCommand {
    /// The message ArgumentParser gives for a clean exit (`--help`, `--version`, …), with the
    /// examples of the help kept whole (HelpText).
    static func cleanExitMessage(for error: Error) -> String {
        HelpText.keepingExamplesWhole(fullMessage(for: error), discussion: configuration.discussion)
    }
}

#pragma once
// Text from a profile (kernel, NVTX and API names, GPU names) or from a model, made inert where it is rendered: one
// function per target. Every renderer of such text goes through these (issue 38: a name holding
// `<img src=x onerror=...>`, a backtick, a link or an escape sequence must show as itself and do nothing).
#include <string>
#include <string_view>

namespace nsys::support {

// Markdown inline text (a paragraph, a heading, a GFM table cell): what could make HTML, a link, an image, a code span
// or a new table cell is escaped (\ ` < > | &, and ']' before '(', '[' or ':'), a bare URL or www. name goes in a code
// span (GFM links them whatever they hold), line breaks become spaces, and control characters, bidirectional overrides
// and invalid UTF-8 become visible escapes (VisibleControls). Emphasis characters (* _ ~) are left: they change no more
// than the look.
std::string MarkdownText(std::string_view text);

// A Markdown code span holding `text` exactly (CommonMark: a fence of backticks longer than any run inside, and a
// space inside each fence when the text starts or ends with one). Code spans are never links, HTML or emphasis, so
// names are best shown this way. Line breaks become spaces, controls visible escapes; `in_table` writes '|' as "\|",
// which GFM reads before the code span when the span sits in a table cell (elsewhere "\|" would show its backslash).
std::string MarkdownCode(std::string_view text, bool in_table = false);

// A model's Markdown answer, kept for its emphasis, lists, headings and code, but made inert: outside code spans and
// fenced blocks (copied as they are: nothing is active in them) '<', '>', '&' and a ']' before '(', '[' or ':'
// are escaped, so there is no HTML, no link, no image and no link reference definition, and a bare URL or www. name is
// put in a code span, which no renderer links. Controls become visible escapes; line breaks stay.
std::string MarkdownFromModel(std::string_view text);

// HTML text or a quoted attribute value: & < > " ' as character references, controls visible.
std::string HtmlText(std::string_view text);

// One line for a terminal: control characters (C0 but tab, DEL, C1), bidirectional overrides and isolates, and bytes
// that are not UTF-8 become visible escapes, so no escape sequence (title, OSC 8 link, clear screen), carriage return
// or reordering reaches the terminal. Line breaks are kept when `keep_newlines`.
std::string TerminalText(std::string_view text, bool keep_newlines = true);

// Controls, bidirectional formatting characters and invalid UTF-8 as escapes: a byte as \xHH (ESC is \x1b), a code
// point as \uHHHH (U+202E is \u202e); `keep` lists the controls left as they are ("\n\t", or "").
std::string VisibleControls(std::string_view text, std::string_view keep);

}  // namespace nsys::support

#pragma once
// The scanners' shared token and position helpers (internal to nsys_source).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/source/annotation.h"

namespace nsys::source::detail {

struct Token {
  enum Type : uint8_t { kIdent, kString, kNumber, kPunct };
  Type type = kPunct;
  bool line_start = false;  // Python: first token of a logical line
  bool dynamic = false;     // kString: had interpolation fields; `value` is the literal prefix before the first
  int indent = 0;           // Python: indentation of the logical line this token starts
  uint32_t begin = 0;       // byte offsets in the text
  uint32_t end = 0;
  int line = 0;  // 0-based line of `begin`
  int end_line = 0;
  std::string_view text;  // the token as written
  std::string value;      // kString: the decoded content
};

bool IsPunct(const Token& t, std::string_view p);
bool IsIdent(const Token& t, std::string_view name);

// Byte offset -> (line, UTF-16 column). Offsets asked in increasing order are cheap (a moving cursor).
class Positions {
 public:
  explicit Positions(std::string_view text);
  int LineOf(uint32_t offset);
  int Utf16Column(uint32_t offset);  // on LineOf(offset); cheap when asked in increasing order

 private:
  std::string_view text_;
  std::vector<uint32_t> starts_;  // byte offset of every line
  size_t cursor_ = 0;
  uint32_t column_offset_ = 0;  // the last column asked, so columns asked in order on one long line stay linear
  int column_ = 0;
  int column_line_ = -1;
};

// The literal at tokens[i] (adjacent literals joined), and what follows it: a `+`, `%` or `.format` makes it a
// prefix. `end` is the index after the literal tokens.
struct Literal {
  std::string value;
  bool prefix_only = false;
  size_t first = 0;
  size_t last = 0;
};
bool ReadLiteral(const std::vector<Token>& tokens, size_t i, Literal& out);

// Fills position fields of `a` from the literal's tokens (or from tokens[first..last] for a non-literal name).
// A token of `text`'s bytes [begin, end) with its lines, as every lexer emits it.
Token MakeToken(Positions& pos, std::string_view text, Token::Type type, size_t begin, size_t end, std::string value,
                bool dynamic);
// Decodes the escape at text[i] == '\\' (with i + 1 < text.size()) into `value`: \n and \t, a backslash and the
// characters of `plain` stand for themselves, a raw literal keeps both characters, an escaped newline continues.
void AppendEscape(std::string_view text, size_t i, bool raw, std::string_view plain, std::string& value);
void PlaceAt(Positions& pos, const std::vector<Token>& tokens, size_t first, size_t last, Annotation& a);

std::vector<Token> LexPython(std::string_view text, Positions& pos);

// A Python logical line of LexPython's tokens, with the extent of the block it heads: what the scanner and the edits
// both walk.
struct PyLogicalLine {
  size_t first = 0;  // token range [first, end)
  size_t end = 0;
  int indent = 0;
  int first_line = 0;
  int last_line = 0;
  int suite_end = 0;  // last line of the block this line heads (its own last line when it heads none)
};
std::vector<PyLogicalLine> PythonLogicalLines(const std::vector<Token>& tokens);
std::vector<Token> LexCpp(std::string_view text, Positions& pos);
std::vector<Token> LexJulia(std::string_view text, Positions& pos);

// The functions the C/C++ scanner recognises (by its heuristics), with the token indices (of LexCpp's tokens) of
// their bodies' braces; close is SIZE_MAX when the body is not closed.
struct CppFunction {
  std::string name;
  int name_line = 0;
  size_t open = 0;
  size_t close = SIZE_MAX;
};
std::vector<CppFunction> CppFunctions(std::string_view text);

void ScanPython(std::string_view text, const std::string& file, std::vector<Annotation>& out);
void ScanCpp(std::string_view text, const std::string& file, std::vector<Annotation>& out);
void ScanJulia(std::string_view text, const std::string& file, std::vector<Annotation>& out);

inline bool IsIdentByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}
inline bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace nsys::source::detail

#include "source/source_test_util.h"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace nsys::testing {

namespace fs = std::filesystem;

TempTree::TempTree() {
  std::string pattern = (fs::temp_directory_path() / "nsys-source-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  root_ = pattern;
}

TempTree::~TempTree() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

fs::path TempTree::Write(const std::string& rel, const std::string& text) const {
  const fs::path path = root_ / rel;
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string Render(const source::Annotation& a) {
  std::string name;  // one line per annotation: control characters escaped
  for (char c : a.name) name += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : std::string(1, c);
  std::ostringstream o;
  o << a.line << ':' << a.column << '-' << a.end_line << ':' << a.end_column << ' ' << source::KindName(a.kind) << ' '
    << source::ApiName(a.api) << " '" << name << "'" << (a.prefix_only ? " prefix" : "") << " callee=" << a.callee;
  if (!a.function.empty()) o << " fn=" << a.function << '@' << a.function_span.first << '-' << a.function_span.last;
  if (a.body.known()) o << " body=" << a.body.first << '-' << a.body.last;
  return o.str();
}

}  // namespace nsys::testing

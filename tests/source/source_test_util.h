#pragma once
// Helpers of the source tests: a temporary directory and the one-line rendering the golden files hold.
#include <filesystem>
#include <fstream>
#include <string>

#include "nsys/source/annotation.h"

namespace nsys::testing {

class TempTree {
 public:
  TempTree();
  ~TempTree();
  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path Write(const std::string& rel, const std::string& text) const;

 private:
  std::filesystem::path root_;
};

std::string ReadText(const std::filesystem::path& path);

// "line:col-end_line:end_col kind api 'name'[ prefix] callee=... fn=name@a-b body=a-b" (0-based lines).
std::string Render(const source::Annotation& a);

}  // namespace nsys::testing

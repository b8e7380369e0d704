#pragma once
// The hand-written scanners (no regex): every place a range name is given in Python, C/C++/CUDA and Julia source.
// Comments, docstrings and other string literals are skipped; names built at run time give their literal prefix.
#include <string>
#include <string_view>
#include <vector>

#include "nsys/source/annotation.h"

namespace nsys::source {

// Every annotation of `text` (the content of `file`, in `language`), in source order. Never throws on any input;
// unterminated strings and comments end at the end of the text.
std::vector<Annotation> ScanSource(std::string_view text, Language language, const std::string& file);

}  // namespace nsys::source

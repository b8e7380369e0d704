# cmake -DIN=file -DOUT=file.cpp -P EmbedText.cmake: writes `extern const char kNsysBookJson[]` holding IN's text as
# a raw string literal (the text must not contain the delimiter )nsys_embed").
file(READ ${IN} _text)
string(FIND "${_text}" ")nsys_embed\"" _clash)
if(NOT _clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw-string delimiter")
endif()
file(WRITE ${OUT} "// Generated from ${IN}; do not edit.\nextern const char kNsysBookJson[];\nconst char kNsysBookJson[] = R\"nsys_embed(${_text})nsys_embed\";\n")

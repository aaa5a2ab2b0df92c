# cmake -DIN=file -DOUT=file.inc -DNAME=delimiter -P embed_text.cmake
# Writes IN's text as one C++ raw string literal (R"NAME(...)NAME") into OUT,
# for a program that must carry a file's text (tascellc's serial prelude is
# runtime/include/tascell/api.hpp). Fails if the text holds the delimiter.
file(READ "${IN}" text)
string(FIND "${text}" ")${NAME}\"" found)
if(NOT found EQUAL -1)
  message(FATAL_ERROR "${IN} holds )${NAME}\": choose another delimiter")
endif()
file(WRITE "${OUT}.tmp" "R\"${NAME}(${text})${NAME}\"\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")

// Text for the terminal in columns: a name, then its description wrapped at
// word boundaries under the description's column (`lockcheck list`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lockcheck {

/// `head` padded to `head_width` characters, then `text` wrapped at spaces
/// into lines of at most `width` characters; the continuation lines start at
/// the text's column. A head longer than its column puts the text on the next
/// line; a word longer than a line stays whole. Characters are counted as
/// UTF-8 code points. Ends with a newline.
std::string hanging_paragraph(std::string_view head, std::size_t head_width, std::string_view text,
                              std::size_t width = 100);

}  // namespace lockcheck

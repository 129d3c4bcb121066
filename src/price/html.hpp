// pqsig price: helpers shared by the HTML renderers (render_html.cpp, render_engines.cpp).
#pragma once

#include <string>
#include <string_view>

namespace pqsig::price::detail {

/// Escapes text for HTML element content and attribute values (& < > " ').
std::string html_escape(std::string_view s);

}  // namespace pqsig::price::detail

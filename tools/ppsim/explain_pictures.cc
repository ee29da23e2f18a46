// In ppsim-render only: `explain -o x.svg|.png|.html` draws here, through
// the picture library (explain_picture.h), which links the drawing libraries.
#include "command.h"
#include "ppsim/explain_picture/explain_picture.h"

namespace ppsim::cli {
namespace {

[[maybe_unused]] const bool installed = (ExplainPictures() = &explain_picture::WritePictures, true);

}  // namespace
}  // namespace ppsim::cli

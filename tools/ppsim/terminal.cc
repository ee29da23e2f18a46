#include "terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

namespace ppsim::cli {

render::TextOptions TextOptionsFor(const std::string& output, int width) {
  render::TextOptions o;
  o.columns = width;
  if (output != "-" || !isatty(STDOUT_FILENO)) return o;
  o.ansi = true;
  winsize ws{};
  if (width <= 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) o.columns = ws.ws_col;
  return o;
}

int StdoutColumns() {
  winsize ws{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

}  // namespace ppsim::cli

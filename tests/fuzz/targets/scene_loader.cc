#include <string_view>

#include "ppsim/scene/scene.h"
#include "small_runs.h"
#include "targets.h"

namespace ppsim::fuzz {

int SceneLoader(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<scene::Scene> scene = scene::LoadSceneText(text, "fuzz.toml");
  if (!scene) return 0;
  for (const scene::SceneRun& run : scene->runs)
    if (!Small(run.problem)) return 0;
  Result<std::vector<ppsim::Run>> runs = scene::SimulateScene(*scene);
  if (runs) (void)scene::CheckSceneClaims(*scene, *runs);
  return 0;
}

}  // namespace ppsim::fuzz

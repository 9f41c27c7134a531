#include <cmath>
#include <filesystem>
#include <optional>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/args.hpp"
#include "cli/audio_drive.hpp"
#include "cli/commands.hpp"
#include "cli/preset_paths.hpp"
#include "io/printable_text.hpp"
#include "io/snapshot.hpp"
#include "io/state_hash.hpp"
#include "params/number_text.hpp"
#include "render/stop_signals.hpp"
#include "sched/thread_pool.hpp"
#include "sim/metrics.hpp"


namespace mirofish::cli {

namespace {

const std::vector<OptionSpec> kOptions = {
    {"preset", "NAME|FILE", "preset id (see 'mirofish presets') or a preset file; default " + std::string(kDefaultPreset)},
    {"fish", "N", "override the preset's fish count"},
    {"steps", "K", "fixed 1/60 s steps to run (default 600)"},
    {"seed", "S", "override the preset's seed"},
    {"threads", "T", "worker threads (default: all cores); results do not depend on it"},
    {"metrics-every", "M", "print a metrics line every M steps (default 60)"},
    {"save-state", "FILE", "write the final state (binary snapshot) to FILE"},
    {"load-state", "FILE", "start from a saved state instead of a fresh spawn: its parameters, fish and seed "
                           "(with --audio, --preset names the preset whose parameters and audio routes the audio "
                           "drives, and the audio goes on from the state's step)"},
    {"audio", "FILE", "drive the parameters from this audio file through the preset's audio routes (the "
                      "articles' three when it has none); step k hears the audio at k/60 s"},
};

nlohmann::ordered_json metricsLine(const Simulation& sim) {
    const Metrics m = computeMetrics(sim);
    nlohmann::ordered_json j;
    j["step"] = sim.stepIndex();
    // To the nanosecond: the sum of 1/60 s steps prints 1.0000000000000013.
    j["time"] = std::round(sim.time() * 1e9) / 1e9;
    j["fish"] = m.fish;
    // Counted by the steps: before the first, nothing was measured (0 would
    // read as fish that see nobody).
    const bool stepped = sim.stepIndex() > 0;
    j["mean_neighbours"] = stepped ? nlohmann::ordered_json(m.meanNeighbours) : nlohmann::ordered_json(nullptr);
    j["mean_speed"] = m.meanSpeed;
    j["polarisation"] = m.polarisation;
    j["milling"] = m.milling;
    // A lone fish has no nearest neighbour: null, not 0 px (fish on top of each other).
    if (m.fish > 1) j["mean_nn_distance"] = m.meanNearestNeighbour;
    else j["mean_nn_distance"] = nullptr;
    j["force_separation"] = stepped ? nlohmann::ordered_json(m.forceSeparation) : nlohmann::ordered_json(nullptr);
    j["force_alignment"] = stepped ? nlohmann::ordered_json(m.forceAlignment) : nlohmann::ordered_json(nullptr);
    j["force_cohesion"] = stepped ? nlohmann::ordered_json(m.forceCohesion) : nlohmann::ordered_json(nullptr);
    j["nonfinite"] = m.nonFinite;
    return j;
}

}  // namespace

int runSimulate(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const CommandSpec spec{"simulate", "mirofish simulate [options]",
                           "Runs the simulation headless and prints one JSON object of metrics per line;\n"
                           "the last line adds \"state_hash\".",
                           kOptions};
    return runCommand(spec, argv, out, err, [&](const Args& args) {
        if (args.has("load-state") && (args.has("fish") || args.has("seed"))) {
            const char* given = args.has("fish") && args.has("seed") ? "--fish and --seed"
                                : args.has("fish")                   ? "--fish"
                                                                     : "--seed";
            throw ArgError(std::string("--load-state restores the fish and the seed; drop ") + given);
        }
        // The state brings its parameters too; a preset named beside it counts only with --audio.
        if (args.has("load-state") && args.has("preset") && !args.has("audio"))
            throw ArgError("--load-state restores the parameters, the fish and the seed; drop --preset "
                           "(beside --audio it names the preset whose parameters and audio routes the audio drives)");
        // The state holds the parameters as the audio last set them: resumed
        // with audio, the run needs the preset it started from, whose own
        // parameters and routes the audio drives (any other gives another run).
        if (args.has("load-state") && args.has("audio") && !args.has("preset"))
            throw ArgError("--audio beside --load-state needs --preset: the preset the saved run started from, whose "
                           "parameters and audio routes the audio drives");
        const auto steps = args.integer("steps", 600, 0, 1'000'000'000);
        const auto every = args.integer("metrics-every", 60, 1, 1'000'000'000);
        const auto threads =
            args.integer("threads", std::max(1u, std::thread::hardware_concurrency()), 1, 256);

        // A state resumed without audio brings everything a preset would:
        // none is read, so a broken or missing default preset cannot stop it.
        std::optional<std::filesystem::path> presetFile;
        if (!args.has("load-state") || args.has("preset"))
            presetFile = presetFileByName(args.value("preset").value_or(kDefaultPreset));
        Preset preset = presetFile ? loadPreset(*presetFile) : Preset{};
        preset.scene.fishCount = static_cast<std::uint32_t>(args.integer("fish", preset.scene.fishCount, 1, kMaxFish));
        preset.scene.seed = args.unsignedInteger("seed", preset.scene.seed);

        // Refuse an unwritable snapshot target now, not after the whole run:
        // through a link, the file it leads to and that file's folder.
        if (const auto state = args.value("save-state")) {
            const std::filesystem::path target = writableOutputFile(*state, "the state");
            // A typo would replace the preset or the audio with the snapshot:
            // the preset's file as found, also when given by its id or by default.
            const std::pair<const char*, std::optional<std::filesystem::path>> inputs[] = {
                {"preset", presetFile}, {"audio", args.value("audio")}};
            for (const auto& [input, file] : inputs) {
                std::error_code ec;
                if (file && std::filesystem::equivalent(target, *file, ec))
                    throw ArgError("cannot write the state to '" + *state + "': it is the " +
                                   (args.has(input) ? std::string("--") + input : "default preset's") +
                                   " file, which it would replace; name another file");
            }
            // `--save-state /dev/stdout > out.txt`: the snapshot replaced
            // out.txt, and the lines written to it were gone; so did the
            // warnings in the file standard error goes to.
            const std::pair<const char*, const char*> streams[] = {
                {"/dev/stdout", "standard output goes to, where the lines are written"},
                {"/dev/stderr", "standard error goes to, where the warnings are written"}};
            for (const auto& [stream, what] : streams) {
                std::error_code ec;
                if (std::filesystem::equivalent(target, stream, ec))
                    throw ArgError("cannot write the state to '" + *state + "': it is the file " + what +
                                   ", which it would replace; name another file");
            }
        }

        ThreadPool pool(static_cast<int>(threads));
        Simulation sim(preset.scene, pool);
        if (const auto state = args.value("load-state")) loadSnapshot(sim, *state);

        // Ctrl+C, a kill or a closed terminal stops the run between two steps
        // (not inside the state's save): its last line and state are those
        // of the step reached. The stop is looked at before the first step and
        // after each step, not after a line is written: a signal that comes
        // while one is written stops the run after the next step, so the last
        // line never repeats a step. While the audio file is read, it stops
        // the reading and its ffmpeg (in a process group of its own, which
        // the terminal's signal misses: killed with the run, it ran on).
        const render::StopSignals stopSignals;
        std::optional<AudioDrive> audio;
        if (const auto file = args.value("audio")) {
            // The audio modulates the preset's parameters: a loaded state holds
            // the values as modulated at its last step.
            DecodeProgress reading;
            reading.cancelled = render::StopSignals::asked;
            try {
                audio = analyseAudioDrive(*file, preset, preset.scene.params, 1.0 / Simulation::kStepSeconds, {},
                                          reading);
            } catch (const DecodeCancelled&) {
                err << "mirofish simulate: stopped by a signal while reading the audio file; no step was run\n";
                return render::exitCodeFor(render::StopSignals::received());
            }
            if (!audio->warning.empty()) err << "mirofish simulate: warning: " << printableText(audio->warning) << "\n";
            audio->skipTo(sim.stepIndex());  // a resumed run goes on where the state left off
        }
        // With audio, each line also shows the modulated parameters' values
        // (an empty object for a preset without routes: the key is always there).
        auto line = [&] {
            auto j = metricsLine(sim);
            if (audio) {
                j["params"] = nlohmann::ordered_json::object();
                for (const ModRoute& r : audio->matrix.routes)
                    j["params"][std::string(paramDef(r.target).key)] = shortestDecimal(sim.params().get(r.target));
            }
            return j;
        };

        const std::uint64_t last = sim.stepIndex() + static_cast<std::uint64_t>(steps);
        bool outputStalled = false;
        bool stop = render::StopSignals::asked();
        while (!stop && sim.stepIndex() < last) {
            if (audio) sim.setParams(audio->paramsAt(sim.stepIndex()));
            sim.step();
            stop = render::StopSignals::asked();
            if (stop || sim.stepIndex() % static_cast<std::uint64_t>(every) != 0 || sim.stepIndex() == last) continue;
            out << line().dump() << "\n" << std::flush;
            if (out) continue;
            // Nobody reads any more (a closed pipe, a full disk): stop at once,
            // not after every step asked for (runCommand says why). A write
            // that waited for a reader that does not read was cut short by
            // the stop instead: the last line would wait as long.
            if (!render::StopSignals::received()) return kExitFailed;
            outputStalled = stop = true;
        }
        if (!outputStalled) {
            auto final = line();
            final["state_hash"] = toHex(stateHash(sim));
            out << final.dump() << "\n" << std::flush;
            // As a line of the run that could not be written: no state either,
            // however few steps came before (runCommand says why).
            if (!out && !render::StopSignals::received()) return kExitFailed;
        }
        // Checked before the run: failing now, the output could not be written (a full disk).
        const auto state = args.value("save-state");
        if (state) {
            try {
                saveSnapshot(sim, *state);
            } catch (const SnapshotError& e) {
                err << "mirofish simulate: " << printableText(e.what()) << "\n";
                return kExitFailed;
            }
        }
        if (const int signal = render::StopSignals::received()) {
            err << "mirofish simulate: stopped by a signal at step " << sim.stepIndex() << " of " << last
                << (outputStalled ? "; nothing was reading the output, so its last line was not written" : "")
                << (state ? "; the state at that step is in " + printableText(*state) : std::string()) << "\n";
            return render::exitCodeFor(signal);
        }
        return kExitOk;
    });
}

}  // namespace mirofish::cli

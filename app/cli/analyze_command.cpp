#include <cstdio>
#include <iomanip>
#include <optional>

#include "audio/audio_analyzer.hpp"
#include "cli/args.hpp"
#include "cli/audio_track.hpp"
#include "cli/commands.hpp"
#include "io/printable_text.hpp"
#include "render/stop_signals.hpp"

namespace mirofish::cli {

namespace {
const std::vector<OptionSpec> kOptions = {
    {"audio", "FILE", "audio file to analyse (wav; flac, mp3, ogg through the ffmpeg program)"},
    {"fps", "F", "analysis frames per second (default 60): frame k analyses the audio ending at k/F s"},
    {"bands", "N", "log-spaced bands between 20 Hz and 16 kHz (default 8)"},
    {"csv", "", "print CSV (frame,time,low,mid,high,band0..bandN-1,level,onset,bpm) instead of JSON lines"},
};

// Fixed notation with 4 decimals: the same bytes on every run.
std::string num(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", v);
    return buffer;
}
}  // namespace

int runAnalyze(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const CommandSpec spec{"analyze", "mirofish analyze --audio FILE [--fps 60] [--bands N] [--csv]",
                           "Analyses an audio file as the simulation hears it: per frame the named bands (low, mid, "
                           "high), the log-spaced bands and the overall level, normalised 0..1 after the automatic "
                           "gain, the onset flag and the running tempo in BPM. Deterministic.",
                           kOptions};
    return runCommand(spec, argv, out, err, [&](const Args& args) {
        const auto file = args.value("audio");
        if (!file) throw ArgError("--audio FILE is required");
        // A real number: what a 29.97 fps render hears can be looked at.
        const double fps = args.number("fps", 60, 1, 1000);
        const long long bands = args.integer("bands", kDefaultBands, 1, 64);
        AudioAnalyzerConfig config;
        config.frameRate = fps;
        config.bands = static_cast<std::size_t>(bands);
        // Ctrl+C or a kill while the file is read stops its ffmpeg too (in a
        // process group of its own, which the terminal's signal misses:
        // killed with the command, it ran on).
        std::optional<AnalysedTrack> read;
        {
            const render::StopSignals stopSignals;
            DecodeProgress reading;
            reading.cancelled = render::StopSignals::asked;
            try {
                read = analyseAudioFile(*file, config, reading);
            } catch (const DecodeCancelled&) {  // said below
            }
            if (const int signal = render::StopSignals::received()) {
                err << "mirofish analyze: stopped by a signal while reading the audio file\n";
                return render::exitCodeFor(signal);
            }
        }
        const AnalysedTrack& track = *read;
        if (!track.audio.warning.empty()) err << "mirofish analyze: warning: " << printableText(track.audio.warning) << "\n";
        const std::vector<AudioFeatures>& frames = track.frames;

        const bool csv = args.has("csv");
        if (csv) {
            out << "frame,time,low,mid,high";
            for (long long b = 0; b < bands; ++b) out << ",band" << b;
            out << ",level,onset,bpm\n";
        }
        for (std::size_t k = 0; k < frames.size() && out; ++k) {
            const AudioFeatures& f = frames[k];
            const double time = static_cast<double>(k) / fps;
            if (csv) {
                out << k << ',' << num(time) << ',' << num(f.named[0]) << ',' << num(f.named[1]) << ','
                    << num(f.named[2]);
                for (float b : f.bands) out << ',' << num(b);
                out << ',' << num(f.level) << ',' << (f.onset ? 1 : 0) << ',' << num(f.bpm) << '\n';
            } else {
                out << "{\"frame\":" << k << ",\"time\":" << num(time) << ",\"low\":" << num(f.named[0])
                    << ",\"mid\":" << num(f.named[1]) << ",\"high\":" << num(f.named[2]) << ",\"bands\":[";
                for (std::size_t b = 0; b < f.bands.size(); ++b) out << (b ? "," : "") << num(f.bands[b]);
                out << "],\"level\":" << num(f.level) << ",\"onset\":" << (f.onset ? 1 : 0) << ",\"bpm\":" << num(f.bpm)
                    << ",\"tempo_confidence\":" << num(f.tempoConfidence) << "}\n";
            }
        }
        // Not written (a full disk): runCommand says so, not that all went well.
        out.flush();
        if (!out) return kExitOk;
        err << "mirofish analyze: " << frames.size() << (frames.size() == 1 ? " frame of " : " frames of ") << num(track.audio.seconds()) << " s at " << fps
            << " fps\n";
        return kExitOk;
    });
}

}  // namespace mirofish::cli

// PNG sequence: frame_000000.png, frame_000001.png... in the output folder.
// Frames are encoded on two writer threads (overlapping the next frames'
// rendering), each written under a temporary name and renamed when complete,
// so a full disk or a cancel leaves only complete frames.
#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "frame_sink.hpp"
#include "png_file.hpp"

namespace mirofish::render {

std::string frameName(std::uint64_t index) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06llu.png", static_cast<unsigned long long>(index));
    return name;
}

bool isFrameName(std::string_view name) {
    constexpr std::string_view prefix = "frame_", suffix = ".png";
    if (!name.starts_with(prefix) || !name.ends_with(suffix)) return false;
    const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    return digits.size() >= 6 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::uint64_t framesWritten(const ExportSettings& s, std::uint64_t handedOver) {
    if (s.kind() != OutputKind::PngSequence) return handedOver;
    std::error_code ec;
    std::uint64_t frames = 0;
    for (const auto& entry : std::filesystem::directory_iterator(s.output, ec))
        frames += isFrameName(entry.path().filename().string());
    return frames;
}

namespace {

class PngSequenceSink : public FrameSink {
public:
    PngSequenceSink(std::filesystem::path folder, bool alpha, int level)
        : folder_(std::move(folder)), alpha_(alpha), level_(level) {
        for (std::thread& w : writers_) w = std::thread([this] { run(); });
    }
    // Cancelled or failed: the frames still queued are dropped.
    ~PngSequenceSink() override {
        {
            std::lock_guard lock(mutex_);
            queue_.clear();
        }
        stop();
    }

    void write(const QImage& frame, std::uint64_t index) override {
        std::unique_lock lock(mutex_);
        spaceFree_.wait(lock, [&] { return queue_.size() < kQueued || error_; });
        if (error_) {
            // The frames still being written may fail too, and an earlier one's failure is the one to report.
            spaceFree_.wait(lock, [&] { return busy_ == 0; });
            throwIfFailed();
        }
        // A shared copy: the renderer's next read-back detaches from it.
        queue_.push_back({frame, index});
        work_.notify_one();
    }

    bool finishFor(std::chrono::milliseconds wait) override {
        {
            std::unique_lock lock(mutex_);
            if (!spaceFree_.wait_for(lock, wait, [&] { return (queue_.empty() && busy_ == 0) || error_; }))
                return false;
        }
        stop();
        std::lock_guard lock(mutex_);
        throwIfFailed();
        return true;
    }

private:
    static constexpr std::size_t kQueued = 4;
    struct Job {
        QImage image;
        std::uint64_t index;
    };
    struct Failure {
        std::uint64_t index;
        std::string message;
    };

    // With no writer at work: a frame after the one that failed may have
    // been written by the other writer, and would leave a gap in the
    // sequence. It goes, so that what stays is frames 0 to the failed one's
    // predecessor, as the message says: only those this export wrote (one
    // writing into the folder beside it kept its own).
    void throwIfFailed() {
        if (!error_) return;
        for (const std::uint64_t later : written_) {
            if (later <= error_->index) continue;
            std::error_code ignored;
            std::filesystem::remove(folder_ / frameName(later), ignored);
        }
        throw ExportError(error_->message);
    }

    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        work_.notify_all();
        for (std::thread& w : writers_)
            if (w.joinable()) w.join();
    }

    void run() {
        for (;;) {
            Job job;
            {
                std::unique_lock lock(mutex_);
                work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
                if (queue_.empty() || error_) return;
                job = std::move(queue_.front());
                queue_.pop_front();
                ++busy_;
            }
            std::optional<std::string> failure = save(job);
            std::lock_guard lock(mutex_);
            --busy_;
            if (!failure) written_.push_back(job.index);
            // Two writers fail out of order; the message is true of the first frame missing.
            if (failure && (!error_ || job.index < error_->index)) error_ = Failure{job.index, std::move(*failure)};
            spaceFree_.notify_all();
            if (error_) return;
        }
    }

    std::optional<std::string> save(const Job& job) const {
        const std::string why = savePngWhole(folder_ / frameName(job.index), job.image, alpha_, level_, false);
        if (why.empty()) return std::nullopt;
        // The question only where the system said so: a folder gone or made
        // read-only under the export is no full disk.
        const bool noSpace = why.find(std::strerror(ENOSPC)) != std::string::npos ||
                             why.find(std::strerror(EDQUOT)) != std::string::npos;
        return "could not write frame " + std::to_string(job.index) + " to '" + folder_.string() + "' (" + why +
               (noSpace ? "; is the disk full?" : "") + "); " +
               (job.index == 0 ? "no frame was written" : "the frames before it are complete");
    }

    std::filesystem::path folder_;
    bool alpha_;
    int level_;
    std::mutex mutex_;
    std::condition_variable work_, spaceFree_;
    std::deque<Job> queue_;
    std::vector<std::uint64_t> written_;  // the frames this export wrote
    int busy_ = 0;  // frames being written
    bool stopping_ = false;
    std::optional<Failure> error_;
    std::thread writers_[2];
};

}  // namespace

std::unique_ptr<FrameSink> openPngSequence(const ExportSettings& settings) {
    return std::make_unique<PngSequenceSink>(settings.output, settings.alpha, settings.pngCompression);
}

}  // namespace mirofish::render

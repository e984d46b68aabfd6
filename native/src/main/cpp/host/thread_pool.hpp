// A fixed set of worker threads that run index-parallel loops; the calling thread takes part.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sam3n::host {

class ThreadPool {
public:
    /** threads: total parallelism including the caller; 0 = std::thread::hardware_concurrency(). */
    explicit ThreadPool(int threads);
    ~ThreadPool();

    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return static_cast<int>(workers_.size()) + 1; }

    /**
     * Calls task(i) for every i in [0, count), spread dynamically over the threads, and returns when all
     * are done. If tasks throw, the first exception is rethrown here after the loop finishes. Not reentrant:
     * tasks must not call parallel_for themselves.
     */
    void parallel_for(int64_t count, const std::function<void(int64_t)>& task);

    /** parallel_for over the ranges [begin, end) of at most `grain` indices that tile [0, count). */
    void parallel_ranges(int64_t count, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

private:
    void worker_loop();
    void run_tasks();

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void(int64_t)>* task_ = nullptr;
    int64_t count_ = 0;
    int64_t next_ = 0;
    int64_t finished_ = 0;
    uint64_t generation_ = 0;
    int busy_workers_ = 0;
    bool stopping_ = false;
    std::exception_ptr error_;
};

}  // namespace sam3n::host

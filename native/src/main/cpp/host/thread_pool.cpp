#include "thread_pool.hpp"

#include <algorithm>

namespace sam3n::host {

ThreadPool::ThreadPool(int threads) {
    int total = threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency());
    for (int i = 1; i < total; ++i) {
        workers_.emplace_back([this] { worker_loop(); });
    }
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) {
        t.join();
    }
}

void ThreadPool::parallel_for(int64_t count, const std::function<void(int64_t)>& task) {
    if (count <= 0) {
        return;
    }
    if (workers_.empty() || count == 1) {
        for (int64_t i = 0; i < count; ++i) {
            task(i);
        }
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        task_ = &task;
        count_ = count;
        next_ = 0;
        finished_ = 0;
        error_ = nullptr;
        ++generation_;
    }
    wake_.notify_all();
    run_tasks();
    std::unique_lock<std::mutex> lock(mutex_);
    // Wait for the last task and for every worker to leave run_tasks, so `task` can go out of scope.
    done_.wait(lock, [this] { return finished_ == count_ && busy_workers_ == 0; });
    task_ = nullptr;
    if (error_) {
        std::exception_ptr e = error_;
        error_ = nullptr;
        std::rethrow_exception(e);
    }
}

void ThreadPool::parallel_ranges(int64_t count, int64_t grain,
                                 const std::function<void(int64_t, int64_t)>& body) {
    const int64_t tasks = (count + grain - 1) / grain;
    parallel_for(tasks, [&](int64_t task) { body(task * grain, std::min(count, (task + 1) * grain)); });
}

void ThreadPool::run_tasks() {
    for (;;) {
        int64_t index;
        const std::function<void(int64_t)>* task;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (next_ >= count_) {
                return;
            }
            index = next_++;
            task = task_;
        }
        try {
            (*task)(index);
        } catch (...) {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!error_) {
                error_ = std::current_exception();
            }
        }
        std::lock_guard<std::mutex> lock(mutex_);
        if (++finished_ == count_) {
            done_.notify_all();
        }
    }
}

void ThreadPool::worker_loop() {
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) {
                return;
            }
            seen = generation_;
            ++busy_workers_;
        }
        run_tasks();
        std::lock_guard<std::mutex> lock(mutex_);
        if (--busy_workers_ == 0) {
            done_.notify_all();
        }
    }
}

}  // namespace sam3n::host

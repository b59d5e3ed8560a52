// The checkpointer (architecture layer 6): moves the redo log's checkpoint forward so that the
// log never fills, and once a second makes the log durable for flush_log_at_trx_commit 0 and
// 2 (InnoDB's master thread does both). A writer calls FreeCheck before each change, as
// InnoDB's log_free_check: past half the log, dirty pages are written and the checkpoint
// moves to the oldest change still unwritten.
#pragma once

#include <thread>

#include "engine/buffer_pool.h"
#include "engine/redo_log.h"
#include "engine/thread_annotations.h"

namespace strata::engine {

class Checkpointer {
 public:
  Checkpointer(BufferPool& pool, RedoLog& log) : pool_(pool), log_(log) {}
  ~Checkpointer();  // stops the thread

  void StartThread();
  void StopThread();  // waits for the thread to finish what it is doing
  // The checkpoint LSN becomes the oldest change not yet written to its page, or the end of
  // the log; the log before it may be overwritten from then on.
  Status Checkpoint();
  // Keeps the log from filling: writes pages and checkpoints once it is half full.
  Status FreeCheck();

 private:
  void Loop();

  BufferPool& pool_;
  RedoLog& log_;
  Mutex stop_mu_;
  CondVar stop_cv_;
  bool stop_ GUARDED_BY(stop_mu_) = false;
  std::thread thread_;
};

}  // namespace strata::engine

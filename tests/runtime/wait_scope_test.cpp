// A join's wait (worker.hpp, wait_scope): when it ends, the worker is no
// longer hungry. A flag left set made the message thread ask other
// processes for work, and spin for the answer, while the worker computed.
// A worker object made by hand; no root call.
#include <gtest/gtest.h>

#include <memory>

#include "worker.hpp"

namespace tascell::detail {
namespace {

TEST(WaitScope, AWorkerIsNotHungryOnceItsWaitEnds) {
  auto w = std::make_unique<worker_impl>();
  w->act = activity::work;
  {
    wait_scope ws(w.get());
    EXPECT_EQ(w->act, activity::wait);
    w->hungry.store(true);  // as help() says when it found nothing to do
  }
  EXPECT_FALSE(w->hungry.load());
  EXPECT_EQ(w->act, activity::work);
}

TEST(WaitScope, AlsoWhenTheWaitEndsWithAnException) {
  auto w = std::make_unique<worker_impl>();
  try {
    wait_scope ws(w.get());
    w->hungry.store(true);
    throw 1;
  } catch (int) {
  }
  EXPECT_FALSE(w->hungry.load());
}

}  // namespace
}  // namespace tascell::detail

#include "worker_link.hpp"

namespace tascell::detail::net {

void worker_link::piece_finished(task* t, worker_face* w, bool last) {
  // Through the victim's ring in shared memory (received_pieces::mail_result):
  // the message thread then only forgets the piece, at a later turn.
  // Written before the next request leaves: a victim already waiting at the
  // join finds it there instead of asking for part of the piece back.
  bool mailed = steal_.pieces().mail_result(t);
  steal_.thief().piece_finishing(w, last);
  events_.post({mailed ? event_queue::event::result_mailed : event_queue::event::finished, t, 0, 0, {}}, !mailed);
}

}  // namespace tascell::detail::net

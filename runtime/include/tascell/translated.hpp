// What translated code may use: the contract between tascellc's output and
// the runtime. Every translated file begins with `#include
// <tascell/translated.hpp>`, and names only what is listed here (the test
// translator.contract checks every golden output against this list). The
// runtime's internals (runtime/src/, and tascell::detail) are not part of
// it: what generated code needs from detail is re-exported below, in
// tascell::translated.
//
// The contract, by construct (docs/translator.md shows what each lowers to):
//
//   every @task function   tascell::ctx (the hidden parameter)
//   a root call            tascell::root
//   @dowork { }            tascell::dowork, tascell::part, tascell::common,
//                          tascell::when, tascell::priority
//   @dowork for            tascell::dowork_for, tascell::range,
//                          tascell::range::canonical, tascell::range::of_count,
//                          tascell::range::over, tascell::iterations,
//                          tascell::cmp::lt,
//                          tascell::cmp::le, tascell::cmp::gt, tascell::cmp::ge
//   clauses                tascell::in, tascell::in_here, tascell::read,
//                          tascell::read_section, tascell::assigned_only,
//                          tascell::owned, tascell::out, tascell::reduce,
//                          tascell::op::plus, tascell::op::min,
//                          tascell::op::max, tascell::copy, tascell::copyout,
//                          tascell::shared
//   @wind                  tascell::wind
//   @shared(min|max)       tascell::incumbent, tascell::improve
//   cancel, cancelled      tascell::cancel, tascell::cancelled
//   distributed tables     tascell::table
//   lazy functions         tascell::translated::lazy_records,
//   (lazy.hpp)             tascell::translated::lazy_enter,
//                          tascell::translated::lazy_poll,
//                          tascell::translated::lazy_check,
//                          tascell::translated::lazy_unwound,
//                          tascell::translated::lazy_wind,
//                          tascell::translated::lazy_save,
//                          tascell::translated::lazy_save_tuple,
//                          tascell::translated::lazy_bottom,
//                          tascell::translated::lazy_site,
//                          tascell::translated::lazy_restore,
//                          tascell::translated::lazy_bad_site,
//                          tascell::translated::resume_first,
//                          tascell::translated::dowork_resume,
//                          tascell::translated::dowork_for_resume
#pragma once

#include "tascell/tascell.hpp"

namespace tascell::translated {

// Lazy functions' fast bodies, entries and resume functions (lazy.hpp).
using detail::lazy_bad_site;
using detail::lazy_bottom;
using detail::lazy_check;
using detail::lazy_enter;
using detail::lazy_poll;
using detail::lazy_records;
using detail::lazy_restore;
using detail::lazy_save;
using detail::lazy_save_tuple;
using detail::lazy_site;
using detail::lazy_unwound;
using detail::lazy_wind;
// The rebuilt frame's eager @dowork (dowork.hpp).
using detail::dowork_for_resume;
using detail::dowork_resume;
using detail::resume_first;

}  // namespace tascell::translated

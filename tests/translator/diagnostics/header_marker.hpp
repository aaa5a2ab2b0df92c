// The header of header_marker.tcpp: a marker on something it does not
// apply to, in a header.
@task int counter;
// expect-error@-1:1: @task must precede a function declaration

// The header of header_prototype.tcpp: its prototypes and the definitions
// there disagree about @task.
@task long f(int n);
// expect-note@-1:12: declared @task here
long g(int n);
// expect-error@-1:6: 'g' was declared @task; every declaration of it must say @task

#ifndef WIDGET_SCHEDULER_CSPAWN_H
#define WIDGET_SCHEDULER_CSPAWN_H
/// GNU extensions that Glibc's Swift module does not expose. Filled in by the providers work.
int cspawn_available(void);
#endif

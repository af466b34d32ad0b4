#ifndef WIDGET_SCHEDULER_CSYSTEMD_SHIM_H
#define WIDGET_SCHEDULER_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-id128.h>
#endif

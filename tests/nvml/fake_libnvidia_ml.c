/*
 * A stand-in for the NVIDIA driver's libnvidia-ml.so.1, written from NVML's documented
 * ABI (nvml.h: the return codes, structs and the size-then-fill protocol of the list
 * queries), for machines without an NVIDIA GPU. The tests build it with `cc` and load it
 * as the real library would be loaded.
 *
 * Two devices: device 0 answers everything, device 1 fails every query (a lost GPU).
 * Device 0's processes come from $FAKE_NVML_PIDS (comma-separated) at init, or from
 * fake_nvml_set_pids(). Process i of n:
 *   - compute list if i is even, with (i + 1) * 128 MiB; graphics list always, with
 *     (i + 1) * 256 MiB; process 2 has no memory figure (NVML_VALUE_NOT_AVAILABLE);
 *   - utilisation: SM 10 * (i + 1) % 100, encoder 3, decoder 77 for process 1 only.
 * Each compute-list query is one driver sample: while the GPU is busy (the default) every
 * process gets a utilisation sample stamped one second after the last.
 */
#include <stdlib.h>
#include <string.h>

typedef int nvmlReturn_t;
enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_GPU_IS_LOST = 15,
};
#define NVML_VALUE_NOT_AVAILABLE 0xFFFFFFFFFFFFFFFFULL
#define MIB (1024ULL * 1024ULL)

typedef struct fake_device *nvmlDevice_t;
struct fake_device {
    unsigned index;
};
static struct fake_device devices[2] = {{0}, {1}};

typedef struct {
    unsigned gpu;
    unsigned memory;
} nvmlUtilization_t;

typedef struct {
    unsigned version;
    unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;

typedef struct {
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;

typedef struct {
    unsigned pid;
    unsigned long long usedGpuMemory;
    unsigned gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t;

typedef struct {
    unsigned pid;
    unsigned long long timeStamp;
    unsigned smUtil, memUtil, encUtil, decUtil;
} nvmlProcessUtilizationSample_t;

#define MOST_PIDS 4096
static unsigned pids[MOST_PIDS];
static unsigned pid_count;
static int busy = 1;
static unsigned long long latest_sample_us;
/* Processes that start between the next size query and the fill that follows it. */
static unsigned starting_next;

void fake_nvml_set_pids(const unsigned *new_pids, unsigned count) {
    pid_count = count < MOST_PIDS ? count : MOST_PIDS;
    memcpy(pids, new_pids, pid_count * sizeof *pids);
}

void fake_nvml_set_busy(int is_busy) { busy = is_busy; }

void fake_nvml_start_during_next_query(unsigned count) { starting_next = count; }

nvmlReturn_t nvmlInit_v2(void) {
    const char *list = getenv("FAKE_NVML_PIDS");
    pid_count = 0;
    while (list && *list && pid_count < MOST_PIDS) {
        char *end;
        pids[pid_count++] = (unsigned)strtoul(list, &end, 10);
        list = *end == ',' ? end + 1 : NULL;
    }
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlShutdown(void) { return NVML_SUCCESS; }

const char *nvmlErrorString(nvmlReturn_t result) {
    return result == NVML_SUCCESS ? "Success" : "Fake NVML error";
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned length) {
    const char fake[] = "550.54.14";
    if (length < sizeof fake)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(version, fake, sizeof fake);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *count) {
    *count = 2;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t *device) {
    if (index >= 2)
        return NVML_ERROR_INVALID_ARGUMENT;
    *device = &devices[index];
    return NVML_SUCCESS;
}

#define ANSWERING(device) \
    if ((device)->index != 0) return NVML_ERROR_GPU_IS_LOST

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned length) {
    const char fake[] = "NVIDIA GeForce RTX 4060";
    ANSWERING(device);
    if (length < sizeof fake)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(name, fake, sizeof fake);
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci) {
    ANSWERING(device);
    memset(pci, 0, sizeof *pci);
    strcpy(pci->busIdLegacy, "0000:01:00.0");
    strcpy(pci->busId, "00000000:01:00.0");
    pci->bus = 1;
    pci->pciDeviceId = 0x288210de;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory) {
    ANSWERING(device);
    memory->total = 8192 * MIB;
    memory->reserved = 0;
    memory->used = 3072 * MIB;
    memory->free = memory->total - memory->used;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *rates) {
    ANSWERING(device);
    rates->gpu = 83;
    rates->memory = 41;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned *celsius) {
    ANSWERING(device);
    if (sensor != 0) /* NVML_TEMPERATURE_GPU */
        return NVML_ERROR_INVALID_ARGUMENT;
    *celsius = 71;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int clock, unsigned *mhz) {
    ANSWERING(device);
    *mhz = clock == 0 ? 1905 : 8001; /* NVML_CLOCK_GRAPHICS, others */
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, int clock, unsigned *mhz) {
    ANSWERING(device);
    *mhz = clock == 0 ? 2460 : 8501;
    return NVML_SUCCESS;
}

/* The size-then-fill protocol: too small a buffer (or none) gets the count needed. */
static nvmlReturn_t list_processes(int compute, unsigned *count, nvmlProcessInfo_t *infos) {
    unsigned listed = 0;
    for (; starting_next && infos && pid_count < MOST_PIDS; starting_next--, pid_count++)
        pids[pid_count] = 900000 + pid_count;
    for (unsigned i = 0; i < pid_count; i++)
        listed += !compute || i % 2 == 0;
    if (*count < listed || !infos) {
        *count = listed;
        return listed ? NVML_ERROR_INSUFFICIENT_SIZE : NVML_SUCCESS;
    }
    listed = 0;
    for (unsigned i = 0; i < pid_count; i++) {
        if (compute && i % 2 != 0)
            continue;
        nvmlProcessInfo_t *info = &infos[listed++];
        info->pid = pids[i];
        info->usedGpuMemory =
            i == 2 ? NVML_VALUE_NOT_AVAILABLE : (i + 1) * (compute ? 128 : 256) * MIB;
        info->gpuInstanceId = info->computeInstanceId = 0xFFFFFFFF;
    }
    *count = listed;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned *count,
                                                     nvmlProcessInfo_t *infos) {
    ANSWERING(device);
    if (busy && infos)
        latest_sample_us += 1000000;
    return list_processes(1, count, infos);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t device, unsigned *count,
                                                      nvmlProcessInfo_t *infos) {
    ANSWERING(device);
    return list_processes(0, count, infos);
}

nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t device,
                                             nvmlProcessUtilizationSample_t *samples,
                                             unsigned *count, unsigned long long since_us) {
    ANSWERING(device);
    if (latest_sample_us <= since_us || pid_count == 0)
        return NVML_ERROR_NOT_FOUND;
    if (*count < pid_count || !samples) {
        *count = pid_count;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    for (unsigned i = 0; i < pid_count; i++) {
        samples[i].pid = pids[i];
        samples[i].timeStamp = latest_sample_us;
        samples[i].smUtil = 10 * (i + 1) % 100;
        samples[i].memUtil = 5;
        samples[i].encUtil = 3;
        samples[i].decUtil = i == 1 ? 77 : 0;
    }
    *count = pid_count;
    return NVML_SUCCESS;
}

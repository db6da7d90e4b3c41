/*
 * faultfs: a FUSE 3 file system that passes every operation through to a backing directory and keeps a model of
 * what a real disk would still hold after a power cut, so that a program's durability can be tested.
 *
 * The model (see README.md):
 *   - Every regular file has an integer id. Its durable content is a copy kept under STATE/durable/<id>; fsync or
 *     fdatasync of the file makes that copy equal to the file (appending only the new tail when the file only grew).
 *   - A directory's entries become durable only when the directory itself is fsynced (FUSE_FSYNCDIR).
 *   - Everything present at mount time is durable.
 *   - "powercut" rebuilds the backing directory from the durable model alone, discarding every write, create,
 *     rename, unlink and truncate since the last fsync that covered it; "powercut torn" also keeps a random prefix of
 *     the unsynced tail of one or more files that only grew (a write torn at a random byte).
 *   - "fail-fsync EIO|ENOSPC [substring]" makes fsync and fdatasync fail; the data they failed to write is dropped
 *     from the model (replaced by zeros and considered clean), as Linux does after a failed writeback.
 *
 * Usage: faultfs [--seed N] BACKING STATE CONTROL_SOCKET MOUNTPOINT [extra FUSE options]
 * It runs in the foreground, single-threaded, with attribute and entry caching off.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE

#include <fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* A regular file's durable state. Index in `files` is its id. */
struct file_rec {
    ino_t ino;          /* backing inode while `mapped` */
    int mapped;         /* 1 while `ino` names this file in the live backing directory */
    off_t durable_len;  /* length of STATE/durable/<id> */
    int has_data;       /* STATE/durable/<id> exists */
    int dirty_below;    /* something below durable_len was overwritten or truncated since the last sync */
};

struct dir_entry {
    char *name;
    int is_dir;
    int id;             /* file id, or directory id when is_dir */
    mode_t mode;
};

/* A directory's durable namespace. Index in `dirs` is its id; id 0 is the mount root. */
struct dir_rec {
    ino_t ino;
    int mapped;
    struct dir_entry *entries;
    int count, capacity;
    int materialized;   /* scratch flag for a rebuild */
};

/* An open file. */
struct handle {
    int fd;
    int id;
    int append;           /* opened O_APPEND: the backing file places each write at its end */
    unsigned generation;  /* handles opened before a power cut answer EIO */
    char *path;           /* the name it was opened by, for fail-fsync's substring */
};

static char backing[PATH_MAX];
static char state_dir[PATH_MAX];
static char durable_dir[PATH_MAX];
static char control_path[PATH_MAX];
static char mountpoint[PATH_MAX];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct file_rec *files;
static int file_count, file_capacity;
static struct dir_rec *dirs;
static int dir_count, dir_capacity;
static unsigned generation = 1;

static int fail_errno;               /* 0: fsync succeeds */
static char fail_substring[PATH_MAX];
static unsigned long long stat_fsyncs, stat_fsyncdirs, stat_failed_fsyncs, stat_powercuts, stat_writes;
static unsigned long long stat_appended_bytes, stat_copied_bytes;
static unsigned long long seed_state;

#define LOCKED(...) do { pthread_mutex_lock(&lock); __VA_ARGS__; pthread_mutex_unlock(&lock); } while (0)

static void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fputs("faultfs: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

static uint64_t next_random(void) { /* splitmix64 */
    uint64_t z = (seed_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Writes a + b to out (PATH_MAX bytes). A path too long for it becomes one whose single component is too long, so
 * the system call it is given fails with ENAMETOOLONG rather than acting on a truncated path. */
static void join_path(char *out, const char *a, const char *b) {
    int n = snprintf(out, PATH_MAX, "%s%s", a, b);
    if (n < 0 || n >= PATH_MAX) {
        memset(out, 'x', NAME_MAX + 2);
        out[0] = '/';
        out[NAME_MAX + 2] = 0;
    }
}

static void backing_path(char *out, const char *path) {
    if (!path) { out[0] = 0; return; }  /* removed while open: calls on "" fail with ENOENT */
    join_path(out, backing, strcmp(path, "/") == 0 ? "" : path);
}

static void child_path(char *out, const char *parent, const char *name) {
    char relative[NAME_MAX + 2];
    snprintf(relative, sizeof relative, "/%s", name);  /* a name is at most NAME_MAX bytes */
    join_path(out, parent, relative);
}

static void durable_path(char *out, int id) {
    char name[16];
    snprintf(name, sizeof name, "/%d", id);
    join_path(out, durable_dir, name);
}

/* ---- the model's records ---- */

static int new_file(ino_t ino) {
    for (int i = 0; i < file_count; i++)
        if (files[i].mapped && files[i].ino == ino) files[i].mapped = 0;  /* the inode was reused */
    if (file_count == file_capacity) {
        file_capacity = file_capacity ? 2 * file_capacity : 64;
        files = realloc(files, (size_t) file_capacity * sizeof *files);
        if (!files) die("out of memory");
    }
    files[file_count] = (struct file_rec) { .ino = ino, .mapped = 1 };
    return file_count++;
}

static int file_by_ino(ino_t ino) {
    for (int i = file_count - 1; i >= 0; i--)
        if (files[i].mapped && files[i].ino == ino) return i;
    return -1;
}

static int file_by_ino_or_new(ino_t ino) {
    int id = file_by_ino(ino);
    return id >= 0 ? id : new_file(ino);
}

static int new_dir(ino_t ino) {
    for (int i = 0; i < dir_count; i++)
        if (dirs[i].mapped && dirs[i].ino == ino) dirs[i].mapped = 0;
    if (dir_count == dir_capacity) {
        dir_capacity = dir_capacity ? 2 * dir_capacity : 16;
        dirs = realloc(dirs, (size_t) dir_capacity * sizeof *dirs);
        if (!dirs) die("out of memory");
    }
    dirs[dir_count] = (struct dir_rec) { .ino = ino, .mapped = 1 };
    return dir_count++;
}

static int dir_by_ino(ino_t ino) {
    for (int i = dir_count - 1; i >= 0; i--)
        if (dirs[i].mapped && dirs[i].ino == ino) return i;
    return -1;
}

static void clear_entries(struct dir_rec *dir) {
    for (int i = 0; i < dir->count; i++) free(dir->entries[i].name);
    dir->count = 0;
}

static void add_entry(struct dir_rec *dir, const char *name, int is_dir, int id, mode_t mode) {
    if (dir->count == dir->capacity) {
        dir->capacity = dir->capacity ? 2 * dir->capacity : 16;
        dir->entries = realloc(dir->entries, (size_t) dir->capacity * sizeof *dir->entries);
        if (!dir->entries) die("out of memory");
    }
    dir->entries[dir->count++] = (struct dir_entry) { .name = strdup(name), .is_dir = is_dir, .id = id,
                                                      .mode = mode & 07777 };
}

/* ---- copying bytes ---- */

static int copy_range(int from, off_t offset, off_t length, int to, off_t to_offset) {
    static char buffer[1 << 16];
    while (length > 0) {
        ssize_t n = pread(from, buffer, length < (off_t) sizeof buffer ? (size_t) length : sizeof buffer, offset);
        if (n < 0) return -errno;
        if (n == 0) return -EIO;  /* shorter than its size said */
        for (ssize_t done = 0; done < n;) {
            ssize_t w = pwrite(to, buffer + done, (size_t) (n - done), to_offset + done);
            if (w < 0) return -errno;
            done += w;
        }
        offset += n;
        to_offset += n;
        length -= n;
    }
    return 0;
}

/* Makes STATE/durable/<id> equal to the first `length` bytes of open file `handle_fd` (which may be write-only, so
 * the bytes are read through a descriptor of its own, reopened through /proc even if the file has no name). */
static int make_durable_from(int id, int fd, off_t length);

static int make_durable(int id, int handle_fd, off_t length) {
    char proc_path[64];
    snprintf(proc_path, sizeof proc_path, "/proc/self/fd/%d", handle_fd);
    int fd = open(proc_path, O_RDONLY);
    if (fd < 0) return -errno;
    int result = make_durable_from(id, fd, length);
    close(fd);
    return result;
}

static int make_durable_from(int id, int fd, off_t length) {
    struct file_rec *file = &files[id];
    char path[PATH_MAX];
    durable_path(path, id);
    if (file->has_data && !file->dirty_below && length >= file->durable_len) {
        int out = open(path, O_WRONLY);
        if (out < 0) return -errno;
        int result = copy_range(fd, file->durable_len, length - file->durable_len, out, file->durable_len);
        close(out);
        if (result < 0) return result;
        stat_appended_bytes += (unsigned long long) (length - file->durable_len);
    } else {
        char temporary[PATH_MAX + 8];
        snprintf(temporary, sizeof temporary, "%s.tmp", path);
        int out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0) return -errno;
        int result = copy_range(fd, 0, length, out, 0);
        close(out);
        if (result < 0 || rename(temporary, path) < 0) {
            unlink(temporary);
            return result < 0 ? result : -errno;
        }
        stat_copied_bytes += (unsigned long long) length;
    }
    file->durable_len = length;
    file->has_data = 1;
    file->dirty_below = 0;
    return 0;
}

/* After a failed fsync Linux marks the pages clean though they never reached the disk: the durable copy keeps what it
 * had, sized to the file's current length with zeros where the unwritten data was, and nothing is pending any more. */
static int drop_unsynced(int id, off_t length) {
    struct file_rec *file = &files[id];
    char path[PATH_MAX];
    durable_path(path, id);
    int out = open(path, O_WRONLY | O_CREAT, 0600);
    if (out < 0) return -errno;
    int result = ftruncate(out, length) < 0 ? -errno : 0;
    close(out);
    if (result < 0) return result;
    file->durable_len = length;
    file->has_data = 1;
    file->dirty_below = 0;
    return 0;
}

/* ---- mount-time scan: everything present is durable ---- */

static int scan_dir(int dir_id, const char *path);

static int scan_entry(int dir_id, const char *parent, const char *name) {
    char path[PATH_MAX];
    child_path(path, parent, name);
    struct stat st;
    if (lstat(path, &st) < 0) return -errno;
    if (S_ISREG(st.st_mode)) {
        int id = file_by_ino(st.st_ino);
        if (id < 0) {
            id = new_file(st.st_ino);
            int fd = open(path, O_RDONLY);
            if (fd < 0) return -errno;
            int result = make_durable_from(id, fd, st.st_size);
            close(fd);
            if (result < 0) return result;
        }
        add_entry(&dirs[dir_id], name, 0, id, st.st_mode);
        return 0;
    }
    if (S_ISDIR(st.st_mode)) {
        int child = new_dir(st.st_ino);
        add_entry(&dirs[dir_id], name, 1, child, st.st_mode);
        return scan_dir(child, path);
    }
    fprintf(stderr, "faultfs: %s is neither a regular file nor a directory, which faultfs does not model\n", path);
    return -ENOTSUP;
}

static int scan_dir(int dir_id, const char *path) {
    DIR *dir = opendir(path);
    if (!dir) return -errno;
    int result = 0;
    struct dirent *entry;
    while (result == 0 && (entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        result = scan_entry(dir_id, path, entry->d_name);
    }
    closedir(dir);
    return result;
}

static int remove_tree_contents(const char *path);

static int remove_path(const char *path) {
    struct stat st;
    if (lstat(path, &st) < 0) return -errno;
    if (S_ISDIR(st.st_mode)) {
        int result = remove_tree_contents(path);
        if (result < 0) return result;
        return rmdir(path) < 0 ? -errno : 0;
    }
    return unlink(path) < 0 ? -errno : 0;
}

static int remove_tree_contents(const char *path) {
    DIR *dir = opendir(path);
    if (!dir) return -errno;
    int result = 0;
    struct dirent *entry;
    while (result == 0 && (entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        char child[PATH_MAX];
        child_path(child, path, entry->d_name);
        result = remove_path(child);
    }
    closedir(dir);
    return result;
}

/* Forgets the model and takes the backing directory as it is now as durable. */
static int reset_model(void) {
    for (int i = 0; i < dir_count; i++) {
        clear_entries(&dirs[i]);
        free(dirs[i].entries);
    }
    free(dirs);
    free(files);
    dirs = NULL;
    files = NULL;
    dir_count = dir_capacity = file_count = file_capacity = 0;
    int result = remove_tree_contents(durable_dir);
    if (result < 0) return result;
    struct stat st;
    if (lstat(backing, &st) < 0) return -errno;
    new_dir(st.st_ino);
    return scan_dir(0, backing);
}

/* ---- power cut ---- */

/* Torn mode: for files whose unsynced writes only appended, decide which keep a random prefix of that tail (the first
 * one found, and each other with probability 1/2), and extend their durable copies by it. Reads the live backing
 * files, so it runs before they are removed. */
static int tear_tails(const char *path, char *torn, int *torn_count, int *candidates) {
    DIR *dir = opendir(path);
    if (!dir) return -errno;
    int result = 0;
    struct dirent *entry;
    while (result == 0 && (entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        char child[PATH_MAX];
        child_path(child, path, entry->d_name);
        struct stat st;
        if (lstat(child, &st) < 0) { result = -errno; break; }
        if (S_ISDIR(st.st_mode)) { result = tear_tails(child, torn, torn_count, candidates); continue; }
        if (!S_ISREG(st.st_mode)) continue;
        int id = file_by_ino(st.st_ino);
        if (id < 0 || torn[id] || files[id].dirty_below || st.st_size <= files[id].durable_len) continue;
        (*candidates)++;
        torn[id] = 1;  /* decided, torn or not */
        if (*torn_count > 0 && next_random() % 2 == 0) continue;  /* the first candidate always tears */
        off_t tail = st.st_size - files[id].durable_len;
        off_t keep = 1 + (off_t) (next_random() % (uint64_t) tail);  /* 1..tail bytes survive */
        if (keep == tail && tail > 1) keep--;                         /* torn, not whole */
        int fd = open(child, O_RDONLY);
        if (fd < 0) { result = -errno; break; }
        if (!files[id].has_data) {
            char out_path[PATH_MAX];
            durable_path(out_path, id);
            int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (out < 0) { result = -errno; close(fd); break; }
            close(out);
            files[id].has_data = 1;
        }
        char out_path[PATH_MAX];
        durable_path(out_path, id);
        int out = open(out_path, O_WRONLY);
        if (out < 0) { result = -errno; close(fd); break; }
        result = copy_range(fd, files[id].durable_len, keep, out, files[id].durable_len);
        close(out);
        close(fd);
        files[id].durable_len += keep;
        (*torn_count)++;
    }
    closedir(dir);
    return result;
}

struct rebuild_counts { int files, dirs, empty_files, skipped_dirs; };

static int materialize(int dir_id, const char *path, char **first_path, struct rebuild_counts *counts) {
    struct dir_rec *dir = &dirs[dir_id];
    dir->materialized = 1;
    for (int i = 0; i < dir->count; i++) {
        struct dir_entry *entry = &dirs[dir_id].entries[i];
        char child[PATH_MAX];
        child_path(child, path, entry->name);
        if (entry->is_dir) {
            if (dirs[entry->id].materialized) { counts->skipped_dirs++; continue; }  /* durable under two names */
            if (mkdir(child, entry->mode ? entry->mode : 0755) < 0) return -errno;
            counts->dirs++;
            int result = materialize(entry->id, child, first_path, counts);
            if (result < 0) return result;
            continue;
        }
        counts->files++;
        if (first_path[entry->id]) {  /* a hard link */
            if (link(first_path[entry->id], child) < 0) return -errno;
            continue;
        }
        int out = open(child, O_WRONLY | O_CREAT | O_EXCL, entry->mode ? entry->mode : 0644);
        if (out < 0) return -errno;
        int result = 0;
        if (files[entry->id].has_data && files[entry->id].durable_len > 0) {
            char source[PATH_MAX];
            durable_path(source, entry->id);
            int in = open(source, O_RDONLY);
            if (in < 0) result = -errno;
            else {
                result = copy_range(in, 0, files[entry->id].durable_len, out, 0);
                close(in);
            }
        } else {
            counts->empty_files++;
        }
        fchmod(out, entry->mode ? entry->mode : 0644);
        close(out);
        if (result < 0) return result;
        first_path[entry->id] = strdup(child);
    }
    return 0;
}

static void powercut(int torn_mode, char *reply, size_t reply_size) {
    /* Requests a killed program had already handed to this process are served before this stat is, since the file
     * system serves one request at a time in order: none of them can land on the rebuilt directory. */
    struct stat ignored;
    stat(mountpoint, &ignored);
    pthread_mutex_lock(&lock);
    int torn_count = 0, candidates = 0, result = 0;
    if (torn_mode) {
        char *torn = calloc((size_t) file_count + 1, 1);
        result = tear_tails(backing, torn, &torn_count, &candidates);
        free(torn);
    }
    struct rebuild_counts counts = { 0 };
    if (result == 0) result = remove_tree_contents(backing);
    if (result == 0) {
        char **first_path = calloc((size_t) file_count + 1, sizeof *first_path);
        for (int i = 0; i < dir_count; i++) dirs[i].materialized = 0;
        result = materialize(0, backing, first_path, &counts);
        for (int i = 0; i < file_count; i++) free(first_path[i]);
        free(first_path);
    }
    if (result == 0) result = reset_model();
    generation++;
    stat_powercuts++;
    if (result < 0)
        snprintf(reply, reply_size, "error powercut failed: %s", strerror(-result));
    else
        snprintf(reply, reply_size, "ok powercut files=%d empty_files=%d dirs=%d torn=%d torn_candidates=%d "
                 "skipped_dirs=%d", counts.files, counts.empty_files, counts.dirs, torn_count, candidates,
                 counts.skipped_dirs);
    pthread_mutex_unlock(&lock);
}

/* ---- FUSE operations ---- */

static struct handle *handle_of(struct fuse_file_info *fi) {
    struct handle *h = (struct handle *) (uintptr_t) fi->fh;
    return h && h->generation == generation ? h : NULL;
}

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg);

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    int result;
    LOCKED({
        char p[PATH_MAX];
        if (fi && fi->fh) {
            struct handle *h = handle_of(fi);
            result = !h ? -EIO : fstat(h->fd, st) < 0 ? -errno : 0;
        } else if (path) {
            backing_path(p, path);
            result = lstat(p, st) < 0 ? -errno : 0;
        } else {
            result = -EIO;
        }
    });
    return result;
}

static int fs_access(const char *path, int mask) {
    char p[PATH_MAX];
    int result;
    LOCKED({ backing_path(p, path); result = access(p, mask) < 0 ? -errno : 0; });
    return result;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t offset, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void) offset; (void) fi; (void) flags;
    int result = 0;
    LOCKED({
        char p[PATH_MAX];
        backing_path(p, path);
        DIR *dir = opendir(p);
        if (!dir) result = -errno;
        else {
            struct dirent *entry;
            while ((entry = readdir(dir)) != NULL)
                if (filler(buf, entry->d_name, NULL, 0, 0)) break;
            closedir(dir);
        }
    });
    return result;
}

static int fs_mkdir(const char *path, mode_t mode) {
    int result;
    LOCKED({
        char p[PATH_MAX];
        backing_path(p, path);
        struct stat st;
        result = mkdir(p, mode) < 0 ? -errno : lstat(p, &st) < 0 ? -errno : 0;
        if (result == 0) new_dir(st.st_ino);  /* its entries are durable once it is fsynced */
    });
    return result;
}

static int fs_rmdir(const char *path) {
    int result;
    LOCKED({ char p[PATH_MAX]; backing_path(p, path); result = rmdir(p) < 0 ? -errno : 0; });
    return result;
}

static int fs_unlink(const char *path) {
    int result;
    LOCKED({ char p[PATH_MAX]; backing_path(p, path); result = unlink(p) < 0 ? -errno : 0; });
    return result;
}

static int fs_rename(const char *from, const char *to, unsigned int flags) {
    int result;
    LOCKED({
        char f[PATH_MAX], t[PATH_MAX];
        backing_path(f, from);
        backing_path(t, to);
        result = syscall(SYS_renameat2, AT_FDCWD, f, AT_FDCWD, t, flags) < 0 ? -errno : 0;
    });
    return result;
}

static int fs_link(const char *from, const char *to) {
    int result;
    LOCKED({
        char f[PATH_MAX], t[PATH_MAX];
        backing_path(f, from);
        backing_path(t, to);
        result = link(f, t) < 0 ? -errno : 0;
    });
    return result;
}

static int open_handle(const char *path, struct fuse_file_info *fi, int create, mode_t mode) {
    char p[PATH_MAX];
    backing_path(p, path);
    struct stat before;
    int existed = lstat(p, &before) == 0;
    int flags = fi->flags & ~(O_NOFOLLOW);
    int fd = create ? open(p, flags | O_CREAT, mode) : open(p, flags);
    if (fd < 0) return -errno;
    struct stat st;
    if (fstat(fd, &st) < 0) { int e = errno; close(fd); return -e; }
    int id;
    if (create && !existed) id = new_file(st.st_ino);
    else {
        id = file_by_ino_or_new(st.st_ino);
        if ((flags & O_TRUNC) && files[id].durable_len > 0) files[id].dirty_below = 1;
    }
    struct handle *h = malloc(sizeof *h);
    if (!h) { close(fd); return -ENOMEM; }
    *h = (struct handle) { .fd = fd, .id = id, .append = (flags & O_APPEND) != 0, .generation = generation,
                           .path = strdup(path) };
    fi->fh = (uint64_t) (uintptr_t) h;
    return 0;
}

static int fs_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    int result;
    LOCKED({ result = open_handle(path, fi, 1, mode); });
    return result;
}

static int fs_open(const char *path, struct fuse_file_info *fi) {
    int result;
    LOCKED({ result = open_handle(path, fi, 0, 0); });
    return result;
}

static int fs_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void) path;
    int result;
    LOCKED({
        struct handle *h = handle_of(fi);
        if (!h) result = -EIO;
        else {
            ssize_t n = pread(h->fd, buf, size, offset);
            result = n < 0 ? -errno : (int) n;
        }
    });
    return result;
}

static int fs_write(const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
    (void) path;
    int result;
    LOCKED({
        struct handle *h = handle_of(fi);
        if (!h) result = -EIO;
        else {
            /* With O_APPEND the backing file places the bytes at its end, past anything durable unless a truncate
             * (already counted) shortened it. */
            if (!h->append && offset < files[h->id].durable_len) files[h->id].dirty_below = 1;
            ssize_t n = pwrite(h->fd, buf, size, offset);
            result = n < 0 ? -errno : (int) n;
            stat_writes++;
        }
    });
    return result;
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    int result;
    LOCKED({
        if (fi && fi->fh) {
            struct handle *h = handle_of(fi);
            if (!h) result = -EIO;
            else {
                if (size < files[h->id].durable_len) files[h->id].dirty_below = 1;
                result = ftruncate(h->fd, size) < 0 ? -errno : 0;
            }
        } else if (!path) {
            result = -EIO;
        } else {
            char p[PATH_MAX];
            backing_path(p, path);
            struct stat st;
            if (lstat(p, &st) < 0) result = -errno;
            else {
                if (S_ISREG(st.st_mode)) {
                    int id = file_by_ino_or_new(st.st_ino);
                    if (size < files[id].durable_len) files[id].dirty_below = 1;
                }
                result = truncate(p, size) < 0 ? -errno : 0;
            }
        }
    });
    return result;
}

static int fs_fallocate(const char *path, int mode, off_t offset, off_t length, struct fuse_file_info *fi) {
    (void) path;
    int result;
    LOCKED({
        struct handle *h = handle_of(fi);
        if (!h) result = -EIO;
        else if (mode != 0 && mode != FALLOC_FL_KEEP_SIZE) result = -EOPNOTSUPP;  /* punching holes: not modelled */
        else result = fallocate(h->fd, mode, offset, length) < 0 ? -errno : 0;
    });
    return result;
}

static int fs_flush(const char *path, struct fuse_file_info *fi) {
    (void) path;
    int result;
    LOCKED({ result = handle_of(fi) ? 0 : -EIO; });
    return result;
}

static int fs_release(const char *path, struct fuse_file_info *fi) {
    (void) path;
    LOCKED({
        struct handle *h = (struct handle *) (uintptr_t) fi->fh;
        if (h) {
            close(h->fd);
            free(h->path);
            free(h);
        }
    });
    return 0;
}

static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    (void) datasync;
    int result;
    LOCKED({
        struct handle *h = handle_of(fi);
        struct stat st;
        if (!h) result = -EIO;
        else if (fstat(h->fd, &st) < 0) result = -errno;
        else {
            const char *name = path ? path : h->path;
            stat_fsyncs++;
            if (fail_errno && (fail_substring[0] == 0 || strstr(name, fail_substring) != NULL)) {
                stat_failed_fsyncs++;
                int dropped = drop_unsynced(h->id, st.st_size);
                result = dropped < 0 ? dropped : -fail_errno;
            } else {
                result = make_durable(h->id, h->fd, st.st_size);
            }
        }
    });
    return result;
}

static int fs_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi) {
    (void) datasync; (void) fi;
    int result = 0;
    LOCKED({
        char p[PATH_MAX];
        struct stat st;
        DIR *dir = NULL;
        if (!path) result = -EIO;
        else {
            backing_path(p, path);
            if (lstat(p, &st) < 0 || !(dir = opendir(p))) result = -errno;
        }
        if (result == 0) {
            int dir_id = dir_by_ino(st.st_ino);
            if (dir_id < 0) dir_id = new_dir(st.st_ino);
            clear_entries(&dirs[dir_id]);
            struct dirent *entry;
            while ((entry = readdir(dir)) != NULL) {
                if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
                struct stat child;
                if (fstatat(dirfd(dir), entry->d_name, &child, AT_SYMLINK_NOFOLLOW) < 0) continue;  /* raced */
                if (S_ISREG(child.st_mode)) {
                    add_entry(&dirs[dir_id], entry->d_name, 0, file_by_ino_or_new(child.st_ino), child.st_mode);
                } else if (S_ISDIR(child.st_mode)) {
                    int child_id = dir_by_ino(child.st_ino);
                    if (child_id < 0) child_id = new_dir(child.st_ino);
                    add_entry(&dirs[dir_id], entry->d_name, 1, child_id, child.st_mode);
                }  /* nothing else can be created through faultfs */
            }
            closedir(dir);
            stat_fsyncdirs++;
        }
    });
    return result;
}

static int fs_statfs(const char *path, struct statvfs *st) {
    int result;
    LOCKED({ char p[PATH_MAX]; backing_path(p, path); result = statvfs(p, st) < 0 ? -errno : 0; });
    return result;
}

static int fs_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
    int result;
    LOCKED({
        if (fi && fi->fh) {
            struct handle *h = handle_of(fi);
            result = !h ? -EIO : futimens(h->fd, tv) < 0 ? -errno : 0;
        } else if (!path) {
            result = -EIO;
        } else {
            char p[PATH_MAX];
            backing_path(p, path);
            result = utimensat(AT_FDCWD, p, tv, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
        }
    });
    return result;
}

static int fs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    int result;
    LOCKED({
        if (fi && fi->fh) {
            struct handle *h = handle_of(fi);
            result = !h ? -EIO : fchmod(h->fd, mode) < 0 ? -errno : 0;
        } else if (!path) {
            result = -EIO;
        } else {
            char p[PATH_MAX];
            backing_path(p, path);
            result = chmod(p, mode) < 0 ? -errno : 0;
        }
    });
    return result;
}

static int fs_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    int result;
    LOCKED({
        if (fi && fi->fh) {
            struct handle *h = handle_of(fi);
            result = !h ? -EIO : fchown(h->fd, uid, gid) < 0 ? -errno : 0;
        } else if (!path) {
            result = -EIO;
        } else {
            char p[PATH_MAX];
            backing_path(p, path);
            result = lchown(p, uid, gid) < 0 ? -errno : 0;
        }
    });
    return result;
}

/* Not implemented, and so answered ENOSYS by libfuse: symlink, readlink, mknod, setxattr and the other extended
 * attribute calls, lock, flock (the kernel then locks locally), ioctl, poll, copy_file_range, lseek. */
static const struct fuse_operations operations = {
    .init = fs_init,
    .getattr = fs_getattr,
    .access = fs_access,
    .readdir = fs_readdir,
    .mkdir = fs_mkdir,
    .rmdir = fs_rmdir,
    .unlink = fs_unlink,
    .rename = fs_rename,
    .link = fs_link,
    .create = fs_create,
    .open = fs_open,
    .read = fs_read,
    .write = fs_write,
    .truncate = fs_truncate,
    .fallocate = fs_fallocate,
    .flush = fs_flush,
    .release = fs_release,
    .fsync = fs_fsync,
    .fsyncdir = fs_fsyncdir,
    .statfs = fs_statfs,
    .utimens = fs_utimens,
    .chmod = fs_chmod,
    .chown = fs_chown,
};

/* ---- control socket ---- */

static void command(char *line, char *reply, size_t reply_size) {
    char *words[4] = { 0 };
    int count = 0;
    for (char *save = NULL, *word = strtok_r(line, " \t\r\n", &save); word && count < 4;
         word = strtok_r(NULL, " \t\r\n", &save))
        words[count++] = word;
    if (count == 0) {
        snprintf(reply, reply_size, "error empty command");
    } else if (strcmp(words[0], "powercut") == 0 && (count == 1 || (count == 2 && strcmp(words[1], "torn") == 0))) {
        powercut(count == 2, reply, reply_size);
    } else if (strcmp(words[0], "fail-fsync") == 0 && (count == 2 || count == 3)
               && (strcmp(words[1], "EIO") == 0 || strcmp(words[1], "ENOSPC") == 0)) {
        LOCKED({
            fail_errno = strcmp(words[1], "EIO") == 0 ? EIO : ENOSPC;
            snprintf(fail_substring, sizeof fail_substring, "%s", count == 3 ? words[2] : "");
        });
        snprintf(reply, reply_size, "ok fsync fails with %s%s%s", words[1], count == 3 ? " for paths containing " : "",
                 count == 3 ? words[2] : "");
    } else if (strcmp(words[0], "ok-fsync") == 0 && count == 1) {
        LOCKED({ fail_errno = 0; fail_substring[0] = 0; });
        snprintf(reply, reply_size, "ok fsync succeeds");
    } else if (strcmp(words[0], "stats") == 0 && count == 1) {
        LOCKED({
            snprintf(reply, reply_size, "ok files=%d dirs=%d writes=%llu fsyncs=%llu fsyncdirs=%llu failed_fsyncs=%llu "
                     "powercuts=%llu appended_bytes=%llu copied_bytes=%llu", file_count, dir_count, stat_writes,
                     stat_fsyncs, stat_fsyncdirs, stat_failed_fsyncs, stat_powercuts, stat_appended_bytes,
                     stat_copied_bytes);
        });
    } else {
        snprintf(reply, reply_size, "error unknown command '%s' (powercut [torn] | fail-fsync EIO|ENOSPC [substring] "
                 "| ok-fsync | stats)", words[0]);
    }
}

static void *control_loop(void *socket_fd) {
    int listener = (int) (intptr_t) socket_fd;
    for (;;) {
        int connection = accept(listener, NULL, NULL);
        if (connection < 0) { if (errno == EINTR) continue; perror("faultfs: accept"); return NULL; }
        FILE *in = fdopen(connection, "r");
        char line[PATH_MAX + 64], reply[512];
        while (in && fgets(line, sizeof line, in)) {
            command(line, reply, sizeof reply);
            size_t length = strlen(reply);
            reply[length++] = '\n';
            if (write(connection, reply, length) < 0) break;
        }
        if (in) fclose(in); else close(connection);
    }
}

static int control_socket;

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void) conn;
    /* Nothing may be cached in the kernel across a rebuild. */
    cfg->entry_timeout = 0;
    cfg->attr_timeout = 0;
    cfg->negative_timeout = 0;
    cfg->kernel_cache = 0;
    cfg->auto_cache = 0;
    cfg->hard_remove = 1;   /* no .fuse_hidden files: an unlinked open file stays reachable through its handle */
    cfg->nullpath_ok = 0;  /* paths for every call that has one; NULL only for an unlinked open file */
    cfg->use_ino = 1;
    pthread_t thread;
    if (pthread_create(&thread, NULL, control_loop, (void *) (intptr_t) control_socket) != 0) die("no control thread");
    pthread_detach(thread);
    return NULL;
}

int main(int argc, char *argv[]) {
    int first = 1;
    seed_state = (unsigned long long) time(NULL) ^ ((unsigned long long) getpid() << 32);
    if (argc > 2 && strcmp(argv[1], "--seed") == 0) {
        seed_state = strtoull(argv[2], NULL, 10);
        first = 3;
    }
    if (argc - first < 4) {
        fprintf(stderr, "Usage: %s [--seed N] BACKING STATE CONTROL_SOCKET MOUNTPOINT [FUSE options]\n", argv[0]);
        return 2;
    }
    if (!realpath(argv[first], backing)) die("backing directory %s: %s", argv[first], strerror(errno));
    if (!realpath(argv[first + 1], state_dir)) die("state directory %s: %s", argv[first + 1], strerror(errno));
    snprintf(control_path, sizeof control_path, "%s", argv[first + 2]);
    if (!realpath(argv[first + 3], mountpoint)) die("mount point %s: %s", argv[first + 3], strerror(errno));
    if (strlen(backing) > PATH_MAX / 4 || strlen(state_dir) > PATH_MAX / 4)
        die("the backing and state directories' paths must be at most %d bytes", PATH_MAX / 4);
    join_path(durable_dir, state_dir, "/durable");
    if (mkdir(durable_dir, 0700) < 0 && errno != EEXIST) die("%s: %s", durable_dir, strerror(errno));
    size_t backing_length = strlen(backing);
    if (strncmp(state_dir, backing, backing_length) == 0 && state_dir[backing_length] == '/')
        die("the state directory must lie outside the backing directory");
    int result = reset_model();
    if (result < 0) die("cannot scan %s: %s", backing, strerror(-result));

    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (strlen(control_path) >= sizeof address.sun_path) die("control socket path too long: %s", control_path);
    strcpy(address.sun_path, control_path);
    unlink(control_path);
    control_socket = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (control_socket < 0 || bind(control_socket, (struct sockaddr *) &address, sizeof address) < 0
        || listen(control_socket, 4) < 0)
        die("control socket %s: %s", control_path, strerror(errno));

    char *fuse_argv[64];
    int fuse_argc = 0;
    fuse_argv[fuse_argc++] = argv[0];
    fuse_argv[fuse_argc++] = mountpoint;
    fuse_argv[fuse_argc++] = "-f";
    fuse_argv[fuse_argc++] = "-s";
    fuse_argv[fuse_argc++] = "-ofsname=faultfs,subtype=faultfs";
    for (int i = first + 4; i < argc && fuse_argc < 63; i++) fuse_argv[fuse_argc++] = argv[i];
    fuse_argv[fuse_argc] = NULL;
    int status = fuse_main(fuse_argc, fuse_argv, &operations, NULL);
    unlink(control_path);
    return status;
}

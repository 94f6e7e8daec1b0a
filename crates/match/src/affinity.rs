//! CPU affinity for `-use-affinity` (Linux): each concurrent game gets two cores of its
//! own from the runner's allowed set, White's engine pinned to the first and Black's to
//! the second (every thread the engine has, through `/proc/PID/task`, and the threads it
//! starts later inherit it). With fewer than two cores per game, games share cores in
//! turn, and the summary says so.

use std::io;

/// The cores this process may run on, in order.
#[cfg(target_os = "linux")]
pub fn allowed_cores() -> Vec<usize> {
    // SAFETY: sched_getaffinity fills the zeroed cpu_set_t it is given (its size passed);
    // CPU_ISSET only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

#[cfg(not(target_os = "linux"))]
pub fn allowed_cores() -> Vec<usize> {
    Vec::new()
}

/// The cores of each concurrent game, `[White's, Black's]`, from `cores`.
pub fn assign(concurrency: usize, cores: &[usize]) -> Vec<[usize; 2]> {
    if cores.is_empty() {
        return Vec::new();
    }
    (0..concurrency)
        .map(|g| {
            [
                cores[(2 * g) % cores.len()],
                cores[(2 * g + 1) % cores.len()],
            ]
        })
        .collect()
}

/// The summary's line about the assignment.
pub fn describe(slots: &[[usize; 2]], cores: &[usize]) -> String {
    let list: Vec<String> = slots
        .iter()
        .enumerate()
        .map(|(i, [w, b])| format!("game {}: cores {w},{b}", i + 1))
        .collect();
    let shared = if cores.len() < 2 * slots.len() {
        format!(
            " ({} cores for {} engines: cores are shared)",
            cores.len(),
            2 * slots.len()
        )
    } else {
        String::new()
    };
    format!("CPU affinity: {}{shared}", list.join("; "))
}

/// Pins every thread of process `pid` to `core`.
#[cfg(target_os = "linux")]
pub fn pin(pid: u32, core: usize) -> io::Result<()> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"))?;
    for t in tasks {
        let Some(tid) = t?.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        // SAFETY: the zeroed cpu_set_t is filled by CPU_SET and read by
        // sched_setaffinity with its size; no other memory is touched.
        let rc = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(core, &mut set);
            libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &set)
        };
        if rc != 0 {
            let e = io::Error::last_os_error();
            // A thread that ended meanwhile is no failure.
            if e.raw_os_error() != Some(libc::ESRCH) {
                return Err(e);
            }
        }
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
pub fn pin(_pid: u32, _core: usize) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "CPU affinity is set on Linux only",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cores_per_game_wrapping_when_short() {
        assert_eq!(assign(2, &[0, 1, 2, 3]), vec![[0, 1], [2, 3]]);
        assert_eq!(assign(2, &[4, 6]), vec![[4, 6], [4, 6]]);
        assert_eq!(assign(3, &[0, 1, 2]), vec![[0, 1], [2, 0], [1, 2]]);
        assert!(assign(2, &[]).is_empty());
        assert!(describe(&assign(2, &[4, 6]), &[4, 6]).contains("cores are shared"));
        assert_eq!(
            describe(&assign(1, &[0, 1]), &[0, 1]),
            "CPU affinity: game 1: cores 0,1"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn pinning_a_child_sets_its_allowed_cores() {
        let cores = allowed_cores();
        assert!(!cores.is_empty());
        let core = *cores.last().unwrap();
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        pin(child.id(), core).unwrap();
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let _ = child.kill();
        let _ = child.wait();
        let line = status
            .lines()
            .find(|l| l.starts_with("Cpus_allowed_list:"))
            .unwrap();
        assert_eq!(line.split(':').nth(1).unwrap().trim(), core.to_string());
    }
}

//! What `/proc` tells of processes (Linux; `None` elsewhere).

use std::{collections::HashSet, fs};

/// The resident memory of `pid`, in bytes (`VmRSS` of `/proc/PID/status`).
pub(super) fn rss(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The resident memory of `pid` and all its descendants (a server started through a
/// wrapper, `npx` or `uv run`, lives in a child).
pub(super) fn tree_rss(pid: u32) -> Option<u64> {
    let own = rss(pid)?;
    let parents = parents();
    let mut tree = vec![pid];
    let mut index = 0;
    while index < tree.len() {
        let parent = tree[index];
        tree.extend(
            parents
                .iter()
                .filter(|(_, of)| *of == parent)
                .map(|(child, _)| *child),
        );
        index += 1;
    }
    Some(
        own + tree[1..]
            .iter()
            .filter_map(|child| rss(*child))
            .sum::<u64>(),
    )
}

/// Every process with its parent.
fn parents() -> Vec<(u32, u32)> {
    pids()
        .filter_map(|pid| {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The command name may hold spaces and parentheses: fields follow the last ')'.
            let rest = &stat[stat.rfind(')')? + 1..];
            let parent = rest.split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, parent))
        })
        .collect()
}

fn pids() -> impl Iterator<Item = u32> {
    fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
}

/// The process of this user that listens on the port of `url`, a loopback address: the
/// topmost, if several share the socket.
pub(super) fn listening_on(url: &str) -> Option<u32> {
    let url = reqwest::Url::parse(url).ok()?;
    let host = url.host_str()?;
    let loopback = host == "localhost"
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|address| address.is_loopback());
    if !loopback {
        return None;
    }
    let port = url.port_or_known_default()?;
    let inodes = listening_sockets(port);
    if inodes.is_empty() {
        return None;
    }
    let holders: HashSet<u32> = pids().filter(|pid| holds_socket(*pid, &inodes)).collect();
    let parents = parents();
    let parent_of = |pid: u32| parents.iter().find(|(child, _)| *child == pid).map(|p| p.1);
    let mut topmost: Vec<u32> = holders
        .iter()
        .copied()
        .filter(|pid| parent_of(*pid).is_none_or(|parent| !holders.contains(&parent)))
        .collect();
    topmost.sort_unstable();
    (topmost.len() == 1).then(|| topmost[0])
}

/// The inodes of the sockets listening on `port` (`/proc/net/tcp` and `tcp6`).
fn listening_sockets(port: u16) -> HashSet<String> {
    let port = format!(":{port:04X}");
    ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|table| fs::read_to_string(table).ok())
        .flat_map(|table| {
            let port = port.clone();
            table
                .lines()
                .skip(1)
                .filter_map(move |line| {
                    let fields: Vec<&str> = line.split_whitespace().collect();
                    // local_address, state 0A (LISTEN), inode.
                    let listening = fields.get(1)?.ends_with(&port) && *fields.get(3)? == "0A";
                    listening.then(|| fields.get(9).map(|inode| (*inode).to_owned()))?
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

fn holds_socket(pid: u32, inodes: &HashSet<String>) -> bool {
    let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.flatten().any(|fd| {
        fs::read_link(fd.path()).is_ok_and(|target| {
            target
                .to_str()
                .and_then(|target| target.strip_prefix("socket:["))
                .and_then(|target| target.strip_suffix(']'))
                .is_some_and(|inode| inodes.contains(inode))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn proc_finds_the_process_listening_on_a_loopback_port_and_its_memory() {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}/mcp");
        assert_eq!(listening_on(&url), Some(std::process::id()));
        assert_eq!(listening_on("http://example.com:80/mcp"), None);
        let own = rss(std::process::id()).unwrap();
        assert!(own > 0);
        assert!(tree_rss(std::process::id()).unwrap() >= own);
    }
}

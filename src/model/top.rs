//! Fixed-size ranked lists: the top N processes by some value, without allocating.

use super::app::Label;
use super::process::Process;
use super::record::COMM_LEN;

/// One row of a ranked list: the process and the value it was ranked by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Row {
    pub tgid: u32,
    /// With `tgid`, the process's key (its leader's start time).
    pub start_ns: u64,
    pub comm: [u8; COMM_LEN],
    pub kthread: bool,
    pub value: u64,
    /// IO rows keep the read/write split of `value`; network rows the received/sent one.
    pub read: u64,
    pub write: u64,
    /// The name shown instead of `comm`: an app's, or a process's real name (see
    /// `src/realnames.rs`); empty: `comm`.
    pub label: Label,
    /// The row sums an app's processes.
    pub app: bool,
    /// The processes an app row sums (1 on a process row).
    pub count: u32,
    /// D rows: how long the process has been stuck, the thread stuck longest, and that
    /// thread's wait channel (read for the rows shown; empty when /proc does not say).
    pub blocked_ns: u64,
    pub blocked_tid: u32,
    pub wchan: Label,
}

impl Row {
    pub fn new(p: &Process, value: u64) -> Self {
        Row {
            tgid: p.tgid,
            start_ns: p.start_ns,
            comm: p.comm,
            kthread: p.kthread,
            value,
            read: p.read_delta,
            write: p.write_delta,
            label: Label::default(),
            app: false,
            count: 1,
            blocked_ns: 0,
            blocked_tid: 0,
            wchan: Label::default(),
        }
    }

    /// A row of the network list: `read` holds the bytes received, `write` those sent.
    pub fn net(p: &Process, received: u64, sent: u64) -> Self {
        Row {
            read: received,
            write: sent,
            ..Row::new(p, received.saturating_add(sent))
        }
    }

    /// The name the row shows: the app's, else the process's `comm`, without padding.
    pub fn name(&self) -> &[u8] {
        shown_name(&self.label, &self.comm)
    }
}

/// `label` where there is one, else `comm` without its padding.
pub fn shown_name<'a>(label: &'a Label, comm: &'a [u8; COMM_LEN]) -> &'a [u8] {
    if label.is_empty() {
        let len = comm.iter().position(|&b| b == 0);
        &comm[..len.unwrap_or(COMM_LEN)]
    } else {
        label.as_bytes()
    }
}

/// What a [`TopList`] holds: rows that know which of two ranks first.
pub trait Ranked: Copy + Default {
    fn ranks_before(&self, other: &Self) -> bool;
}

/// How rows rank: the larger value first; ties go to the lower PID so the order never
/// depends on hash-map iteration.
fn rank_key(value: u64, tgid: u32) -> (u64, std::cmp::Reverse<u32>) {
    (value, std::cmp::Reverse(tgid))
}

impl Ranked for Row {
    fn ranks_before(&self, other: &Row) -> bool {
        rank_key(self.value, self.tgid) > rank_key(other.value, other.tgid)
    }
}

impl<const N: usize> TopList<N, Row> {
    /// Whether a row of `value` for process `tgid` would be kept: checked before the row
    /// is built, since most of a machine's processes are not among the top few.
    pub fn takes(&self, value: u64, tgid: u32) -> bool {
        match self.rows[..self.len].get(N - 1) {
            Some(last) => rank_key(value, tgid) > rank_key(last.value, last.tgid),
            None => true,
        }
    }
}

/// The `N` rows offered that rank first (see [`Ranked`]), in order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TopList<const N: usize, T: Ranked = Row> {
    rows: [T; N],
    len: usize,
}

impl<const N: usize, T: Ranked> Default for TopList<N, T> {
    fn default() -> Self {
        TopList {
            rows: [T::default(); N],
            len: 0,
        }
    }
}

impl<const N: usize, T: Ranked> TopList<N, T> {
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Offers a row; keeps it if it ranks among the top `N`.
    pub fn offer(&mut self, row: T) {
        let pos = self.rows[..self.len]
            .iter()
            .position(|r| row.ranks_before(r))
            .unwrap_or(self.len);
        if pos >= N {
            return;
        }
        let last = self.len.min(N - 1);
        self.rows.copy_within(pos..last, pos + 1);
        self.rows[pos] = row;
        self.len = (self.len + 1).min(N);
    }

    pub fn rows(&self) -> &[T] {
        &self.rows[..self.len]
    }

    /// The rows, to name them (their order stays).
    pub fn rows_mut(&mut self) -> &mut [T] {
        &mut self.rows[..self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(tgid: u32, value: u64) -> Row {
        Row {
            tgid,
            value,
            ..Default::default()
        }
    }

    fn ranked<const N: usize>(list: &TopList<N>) -> Vec<(u32, u64)> {
        list.rows().iter().map(|r| (r.tgid, r.value)).collect()
    }

    #[test]
    fn keeps_the_largest_in_order() {
        let mut top = TopList::<3>::default();
        for (tgid, value) in [(1, 5), (2, 50), (3, 1), (4, 20), (5, 30), (6, 2)] {
            top.offer(row(tgid, value));
        }
        assert_eq!(ranked(&top), [(2, 50), (5, 30), (4, 20)]);
    }

    #[test]
    fn ties_go_to_the_lower_pid_whatever_the_offer_order() {
        let mut forward = TopList::<2>::default();
        let mut backward = TopList::<2>::default();
        for tgid in 1..=4 {
            forward.offer(row(tgid, 7));
            backward.offer(row(5 - tgid, 7));
        }
        assert_eq!(ranked(&forward), [(1, 7), (2, 7)]);
        assert_eq!(ranked(&backward), ranked(&forward));
    }

    #[test]
    fn takes_says_whether_an_offer_would_be_kept() {
        let mut top = TopList::<3>::default();
        // A pseudo-random walk of values, ties and pids included.
        let mut x = 7u64;
        for i in 0..500u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (tgid, value) = ((x >> 40) as u32 % 50, (x >> 20) % 20);
            let before = ranked(&top);
            let takes = top.takes(value, tgid);
            top.offer(row(tgid, value));
            let kept = ranked(&top).contains(&(tgid, value)) && ranked(&top) != before;
            assert_eq!(takes, kept, "offer {i}: ({tgid}, {value}) to {before:?}");
        }
    }

    #[test]
    fn fewer_rows_than_slots() {
        let mut top = TopList::<5>::default();
        top.offer(row(9, 1));
        assert_eq!(ranked(&top), [(9, 1)]);
        top.clear();
        assert!(top.is_empty());
    }
}

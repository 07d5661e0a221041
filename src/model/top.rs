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
    /// IO rows keep the read/write split of `value`.
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

    /// The name the row shows: the app's, else the process's `comm`, without padding.
    pub fn name(&self) -> &[u8] {
        if self.label.is_empty() {
            let len = self.comm.iter().position(|&b| b == 0);
            &self.comm[..len.unwrap_or(COMM_LEN)]
        } else {
            self.label.as_bytes()
        }
    }
}

/// The `N` largest rows offered, largest first; ties go to the lower PID so the order
/// never depends on hash-map iteration.
#[derive(Clone, Copy, Debug)]
pub struct TopList<const N: usize> {
    rows: [Row; N],
    len: usize,
}

impl<const N: usize> Default for TopList<N> {
    fn default() -> Self {
        TopList {
            rows: [Row::default(); N],
            len: 0,
        }
    }
}

impl<const N: usize> TopList<N> {
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Offers a row; keeps it if it ranks among the top `N`.
    pub fn offer(&mut self, row: Row) {
        let ranks_before = |a: &Row, b: &Row| {
            (a.value, std::cmp::Reverse(a.tgid)) > (b.value, std::cmp::Reverse(b.tgid))
        };
        let pos = self.rows[..self.len]
            .iter()
            .position(|r| ranks_before(&row, r))
            .unwrap_or(self.len);
        if pos >= N {
            return;
        }
        let last = self.len.min(N - 1);
        self.rows.copy_within(pos..last, pos + 1);
        self.rows[pos] = row;
        self.len = (self.len + 1).min(N);
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows[..self.len]
    }

    /// The rows, to name them (their order stays).
    pub fn rows_mut(&mut self) -> &mut [Row] {
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
    fn fewer_rows_than_slots() {
        let mut top = TopList::<5>::default();
        top.offer(row(9, 1));
        assert_eq!(ranked(&top), [(9, 1)]);
        top.clear();
        assert!(top.is_empty());
    }
}

//! A Mealy machine in flat vectors: the form the automaton takes between
//! determinization and table layout, and the input of [`super::minimize`].
//! State 0 is dead, states `1..=k` the start states, one per context of the
//! rules across values (each also where the sequences leaving that context end).

/// The output of one transition: payload bits, where they go (a place code of
/// `placemat_codec::dfa::Parts::places`, 0 when they simply go below the bits
/// read before), and the bias if it completes.
pub(crate) type Output = (u32, u32, u64);

/// A value read so far that a longer sequence may still replace
/// (`overlap: longest`): where the decoder goes back to if every longer
/// sequence dies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pending {
    /// The bias its completing transition would have added.
    pub bias: u64,
    /// The context it leaves.
    pub to: usize,
    /// Units read since it completed (0 in the state its last unit leads to).
    pub back: u32,
}

/// `next[s * width + symbol]`, `out[s * width + symbol]`, `pending[s]`.
#[derive(Clone, Debug)]
pub(crate) struct Machine {
    pub width: usize,
    pub next: Vec<usize>,
    pub out: Vec<Output>,
    pub pending: Vec<Option<Pending>>,
}

impl Machine {
    /// A machine of `states` states, every transition dead.
    pub fn new(width: usize, states: usize) -> Self {
        Machine {
            width,
            next: vec![0; width * states],
            out: vec![(0, 0, 0); width * states],
            pending: vec![None; states],
        }
    }

    /// Number of states.
    pub fn states(&self) -> usize {
        self.next.len() / self.width
    }

    /// Adds a state whose transitions are all dead; returns its id.
    pub fn push_state(&mut self) -> usize {
        self.next.extend(std::iter::repeat_n(0, self.width));
        self.out.extend(std::iter::repeat_n((0, 0, 0), self.width));
        self.pending.push(None);
        self.states() - 1
    }

    /// Where state `s` goes on `symbol`.
    pub fn next(&self, s: usize, symbol: usize) -> usize {
        self.next[s * self.width + symbol]
    }

    /// What state `s` writes on `symbol`.
    pub fn out(&self, s: usize, symbol: usize) -> Output {
        self.out[s * self.width + symbol]
    }
}

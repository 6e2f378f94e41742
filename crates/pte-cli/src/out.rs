//! Standard output that may be closed early (`pte info x | head`): writing
//! then ends the process quietly instead of panicking as `std::println!` does.

pub(crate) fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out.write_fmt(args).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

// These shadow the prelude's macros in every module declared after this one.
macro_rules! println {
    () => { $crate::out::write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::out::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}
macro_rules! print {
    ($($arg:tt)*) => { $crate::out::write_stdout(format_args!($($arg)*)) };
}

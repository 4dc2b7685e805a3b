// Inline icons: no emoji font or icon font is needed, and they follow currentColor.

export function JarIcon({ size = 22 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="7" y="4" width="18" height="5" rx="1.5" fill="currentColor" opacity="0.85" />
      <rect x="5.5" y="9" width="21" height="19" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <rect x="10" y="15" width="12" height="7" rx="1" fill="currentColor" opacity="0.35" />
    </svg>
  );
}

export function PlateIcon() {
  return (
    <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
      <circle cx="24" cy="24" r="13" fill="none" stroke="currentColor" strokeWidth="2.5" />
      <circle cx="24" cy="24" r="8" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M5 10v9a3 3 0 0 0 3 3v16M8 10v9M11 10v9a3 3 0 0 1-3 3" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <path d="M41 10c-3 2-4 6-4 11h4v17" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function TimerIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false" className="icon-inline">
      <circle cx="12" cy="13.5" r="7.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 9.5v4l2.5 2M9.5 3h5M12 3v3" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function MenuIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path d="M4 7h16M4 12h16M4 17h16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

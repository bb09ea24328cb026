/** The product mark: a stylised passport with a check, drawn inline so it costs no request. */
export const Logo = ({ size = 40, title }: { size?: number; title?: string }) => (
  <svg
    width={size}
    height={size}
    viewBox="0 0 48 48"
    role={title ? "img" : undefined}
    aria-hidden={title ? undefined : true}
    aria-label={title}
    className="logo"
  >
    <rect x="6" y="3" width="36" height="42" rx="5" fill="#0b4f8a" />
    <circle cx="24" cy="20" r="9" fill="none" stroke="#ffffff" strokeWidth="2.5" />
    <path d="M15 20h18M24 11c-3.5 4.5-3.5 13.5 0 18M24 11c3.5 4.5 3.5 13.5 0 18" fill="none" stroke="#ffffff" strokeWidth="1.8" />
    <path d="M16 36l5 4 11-9" fill="none" stroke="#7fd6a4" strokeWidth="3.2" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

/** The product's name, shown beside the logo and as the fixed tab title (SHELL-2). */
export const PRODUCT_TITLE = "E-Travel Back Office";

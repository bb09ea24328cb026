/** How many pages `total` rows make at `size` rows a page ("All" is one page); none for no rows. */
export const pageCount = (total: number, size: number | "All"): number =>
  total <= 0 ? 0 : size === "All" ? 1 : Math.ceil(total / size);

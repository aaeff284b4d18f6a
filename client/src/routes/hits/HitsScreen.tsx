import { Route, Routes } from 'react-router';
import { ErrorPage } from '../../components/ErrorPage.tsx';
import { LoadingScreen } from '../../components/LoadingScreen.tsx';
import { BrowseHits } from './BrowseHits.tsx';
import { CreateHit } from './CreateHit.tsx';
import { HitDetail } from './HitDetail.tsx';
import { ReviewQueuePage } from './ReviewQueue.tsx';
import { StatusPage } from './StatusPage.tsx';
import { useHitsMessages } from './use-hits.ts';

/**
 * The catalogue screens (docs/product.md#screens), lazily loaded as one chunk under `/hits/*`
 * (budget P9): browse (`/hits`, `/hits/`), create (`/hits/create`), the
 * hit-download status (`/hits/status`), the review queue (`/hits/reports`) and one hit (`/hits/{hitId}`). Their
 * messages (namespace `hits`) load with them; until then a spinner.
 */
export default function HitsScreen() {
  const ready = useHitsMessages();
  if (!ready) return <LoadingScreen />;
  return (
    <Routes>
      <Route index element={<BrowseHits />} />
      <Route path="create" element={<CreateHit />} />
      <Route path="status" element={<StatusPage />} />
      <Route path="reports" element={<ReviewQueuePage />} />
      <Route path=":hitId" element={<HitDetail />} />
      <Route path="*" element={<ErrorPage status={404} />} />
    </Routes>
  );
}

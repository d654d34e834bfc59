import { boot } from '../../kit/boot.tsx'
import { Tester } from './TesterView.tsx'

boot(() => <Tester />)
